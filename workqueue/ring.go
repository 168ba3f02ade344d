package workqueue

// ring is a FIFO of items backed by a circular slice whose length is a power
// of two. Unlike the "append, then reslice [1:]" idiom, popping never leaks
// the front of the backing array, so a queue in its steady state stops
// allocating once the ring has grown to its high-water mark.
// The zero value is an empty ring. It is not safe for concurrent use.
type ring[T any] struct {
	buf  []T
	head int // index of the oldest item
	n    int // number of items
}

// len returns the number of items in the ring.
func (r *ring[T]) len() int { return r.n }

// push appends x at the back, growing the ring when it is full.
func (r *ring[T]) push(x T) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = x
	r.n++
}

// pop removes and returns the front item. The ring must not be empty.
func (r *ring[T]) pop() T {
	x := r.buf[r.head]
	var zero T
	r.buf[r.head] = zero // let the garbage collector have what x points to
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	return x
}

// at returns the i-th item from the front, for tests and inspection.
func (r *ring[T]) at(i int) T { return r.buf[(r.head+i)&(len(r.buf)-1)] }

// set replaces the i-th item from the front with x.
func (r *ring[T]) set(i int, x T) { r.buf[(r.head+i)&(len(r.buf)-1)] = x }

// grow doubles the capacity (16 at least), unrolling the items to the start.
func (r *ring[T]) grow() {
	buf := make([]T, max(16, 2*len(r.buf)))
	for i := range r.n {
		buf[i] = r.at(i)
	}
	r.buf, r.head = buf, 0
}
