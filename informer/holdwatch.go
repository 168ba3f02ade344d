package informer

import (
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// HoldWatch returns a watch that relays w's events one at a time, each
// once hold has returned true for it; hold returning false ends the relay
// and closes the watch. hold gets a channel that is closed when the
// returned watch is stopped, so that a hold can give up. A
// [ListerWatcher] wrapper uses it to make each watch event wait for its
// turn: the kitchen's conductor in tests, the live view's gate.
func HoldWatch(w meta.WatchInterface, hold func(e meta.Event, stopped <-chan struct{}) bool) meta.WatchInterface {
	hw := &heldWatch{in: w, out: make(chan meta.Event), stop: make(chan struct{})}
	go hw.relay(hold)
	return hw
}

// heldWatch relays a watch's events, each after its hold.
type heldWatch struct {
	in       meta.WatchInterface
	out      chan meta.Event
	stop     chan struct{}
	stopOnce sync.Once
}

func (w *heldWatch) ResultChan() <-chan meta.Event { return w.out }

func (w *heldWatch) Stop() {
	w.stopOnce.Do(func() { close(w.stop) })
	w.in.Stop()
}

func (w *heldWatch) relay(hold func(meta.Event, <-chan struct{}) bool) {
	defer close(w.out)
	defer w.in.Stop()
	for e := range w.in.ResultChan() {
		if !hold(e, w.stop) {
			return
		}
		select {
		case w.out <- e:
		case <-w.stop:
			return
		}
	}
}
