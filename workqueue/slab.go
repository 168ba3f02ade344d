package workqueue

// slabChunk is how many entries a slab chunk holds.
const slabChunk = 256

// slab holds entries by slot number (an int32, so that heaps of slots
// stay small), in chunks of [slabChunk] entries rather than one growing
// slice: growing never copies the entries already there, and a large slab
// keeps no slack beyond its last chunk. The first chunk starts small and
// doubles, so that a queue that delays a handful of items stays small.
// Freed slots are reused first. The zero value is an empty slab; it is
// not safe for concurrent use.
type slab[E any] struct {
	chunks [][]E
	free   []int32 // freed slots, reused first
	used   int32   // slots ever handed out: free ones and those in use
}

// at returns the entry in slot.
func (s *slab[E]) at(slot int32) *E {
	return &s.chunks[slot/slabChunk][slot%slabChunk]
}

// alloc returns an unused slot, holding the zero E.
func (s *slab[E]) alloc() int32 {
	if n := len(s.free); n > 0 {
		slot := s.free[n-1]
		s.free = s.free[:n-1]
		return slot
	}
	slot := s.used
	i, j := int(slot/slabChunk), int(slot%slabChunk)
	switch {
	case i == len(s.chunks):
		size := slabChunk
		if i == 0 {
			size = 8 // the first chunk starts small
		}
		s.chunks = append(s.chunks, make([]E, size))
	case j == len(s.chunks[i]): // only the first chunk can be short: double it
		s.chunks[i] = append(s.chunks[i], make([]E, len(s.chunks[i]))...)
	}
	s.used++
	return slot
}

// release zeroes the entry in slot, so that it keeps nothing alive, and
// frees the slot.
func (s *slab[E]) release(slot int32) {
	var zero E
	*s.at(slot) = zero
	s.free = append(s.free, slot)
}

// inUse returns the number of slots handed out and not released.
func (s *slab[E]) inUse() int { return int(s.used) - len(s.free) }
