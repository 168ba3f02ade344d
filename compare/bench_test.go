package compare

import (
	"os"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/compare/internal/bench"
)

// TestMain stops what the benchmarks started (the etcd of
// BenchmarkDurableCreatesVsEtcd) when the tests end.
func TestMain(m *testing.M) {
	code := m.Run()
	bench.Close()
	os.Exit(code)
}

// runPairs runs every pair whose name starts with family, as
// family[/rest]/kitchensync and family[/rest]/client-go.
func runPairs(b *testing.B, family string) {
	for _, p := range bench.Pairs() {
		name, ok := strings.CutPrefix(p.Name, family)
		if !ok || (name != "" && name[0] != '/') {
			continue
		}
		run := func(b *testing.B) {
			b.Run("kitchensync", p.KS)
			b.Run("client-go", p.CG)
		}
		if name == "" {
			run(b)
		} else {
			b.Run(name[1:], run)
		}
	}
}

func BenchmarkWorkqueueAddGetDone(b *testing.B)     { runPairs(b, "WorkqueueAddGetDone") }
func BenchmarkPriorityQueueAddGetDone(b *testing.B) { runPairs(b, "PriorityQueueAddGetDone") }
func BenchmarkWorkqueueAddRateLimitedForget(b *testing.B) {
	runPairs(b, "WorkqueueAddRateLimitedForget")
}
func BenchmarkWorkqueueAddAfter100k(b *testing.B) { runPairs(b, "WorkqueueAddAfter100k") }
func BenchmarkWorkqueueAddAfterUntilDone100k(b *testing.B) {
	runPairs(b, "WorkqueueAddAfterUntilDone100k")
}
func BenchmarkDeltaFIFOAddPop100k(b *testing.B)    { runPairs(b, "DeltaFIFOAddPop100k") }
func BenchmarkDeltaFIFOReplace100k(b *testing.B)   { runPairs(b, "DeltaFIFOReplace100k") }
func BenchmarkRealFIFOAddPop100k(b *testing.B)     { runPairs(b, "RealFIFOAddPop100k") }
func BenchmarkRealFIFOReplacePop100k(b *testing.B) { runPairs(b, "RealFIFOReplacePop100k") }
func BenchmarkIndexerAdd100k(b *testing.B)         { runPairs(b, "IndexerAdd100k") }
func BenchmarkIndexerByIndex(b *testing.B)         { runPairs(b, "IndexerByIndex") }
func BenchmarkInformerEndToEnd100k(b *testing.B)   { runPairs(b, "InformerEndToEnd100k") }
func BenchmarkServerWrites(b *testing.B)           { runPairs(b, "ServerWrites") }
func BenchmarkDurableCreatesVsEtcd(b *testing.B)   { runPairs(b, "DurableCreatesVsEtcd") }
func BenchmarkWatchFanOutVsBareChannels(b *testing.B) {
	runPairs(b, "WatchFanOutVsBareChannels")
}
