package bench

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// The fan-out workload: one writer, n watchers that each receive every
// event. There is no client-go counterpart (client-go has no server), so
// the reference column is the floor: the same fan-out over bare buffered
// channels, with the same readers. Both sides are apiservertest's, the
// ones the apiserver package's own benchmark runs. Reported: ns per event
// (all watchers), events/s delivered.

func fanOutKS(watchers int) func(*testing.B) {
	return func(b *testing.B) { apiservertest.BenchmarkFanOut(b, watchers) }
}

func fanOutBare(readers int) func(*testing.B) {
	return func(b *testing.B) { apiservertest.BenchmarkBareFanOut(b, readers) }
}
