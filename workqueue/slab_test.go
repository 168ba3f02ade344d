package workqueue

import "testing"

// TestSlab allocates across several chunks, frees every third slot and
// allocates again: slots are never handed out twice, freed ones come back
// zeroed, and each entry keeps what was stored in it.
func TestSlab(t *testing.T) {
	var s slab[int]
	owner := map[int32]int{} // slot -> the value stored there
	put := func(v int) {
		slot := s.alloc()
		if _, taken := owner[slot]; taken {
			t.Fatalf("slot %d handed out twice", slot)
		}
		if got := *s.at(slot); got != 0 {
			t.Fatalf("new slot %d holds %d, want 0", slot, got)
		}
		*s.at(slot) = v
		owner[slot] = v
	}
	for v := 1; v <= 3*slabChunk+5; v++ {
		put(v)
	}
	for slot := range owner {
		if slot%3 == 0 {
			s.release(slot)
			delete(owner, slot)
		}
	}
	for v := 1; v <= slabChunk; v++ {
		put(-v)
	}
	for slot, v := range owner {
		if got := *s.at(slot); got != v {
			t.Fatalf("slot %d holds %d, want %d", slot, got, v)
		}
	}
	if s.inUse() != len(owner) {
		t.Fatalf("inUse() = %d, want %d", s.inUse(), len(owner))
	}
}
