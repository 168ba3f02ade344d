package bench

import (
	"strconv"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/informer"
)

// Pair is one workload on both libraries.
type Pair struct {
	// Name is the benchmark name without "Benchmark", e.g.
	// "WorkqueueAddGetDone/producers=4".
	Name string
	// KS and CG run the workload on kitchensync and client-go.
	KS, CG func(b *testing.B)
}

// Scale is the size of the big workloads ("100k" in their names): 100,000
// objects or items. cmd/sidebyside -quick lowers it.
var Scale = 100_000

// Pairs returns every workload, in table order.
func Pairs() []Pair {
	var out []Pair
	for _, p := range []int{1, 4, 16} {
		out = append(out, Pair{"WorkqueueAddGetDone/producers=" + strconv.Itoa(p), queueKS(p), queueCG(p)})
	}
	for _, p := range []int{1, 4} {
		out = append(out, Pair{"PriorityQueueAddGetDone/producers=" + strconv.Itoa(p), priorityKS(p), priorityCR(p)})
	}
	out = append(out,
		Pair{"WorkqueueAddRateLimitedForget", rateLimitedKS, rateLimitedCG},
		Pair{"WorkqueueAddAfter100k", addAfterKS, addAfterCG},
		Pair{"WorkqueueAddAfterUntilDone100k", addAfterReadyKS, addAfterReadyCG},
		Pair{"DeltaFIFOAddPop100k", fifoAddPopKS, fifoAddPopCG},
		Pair{"DeltaFIFOReplace100k", fifoReplaceKS, fifoReplaceCG},
		Pair{"RealFIFOAddPop100k", realFIFOAddPopKS, realFIFOAddPopCG},
		Pair{"RealFIFOReplacePop100k", realFIFOReplacePopKS, realFIFOReplacePopCG},
		Pair{"IndexerAdd100k", indexerAddKS, indexerAddCG},
		Pair{"IndexerByIndex", byIndexKS, byIndexCG},
		// kitchensync's default queue (atomic RealFIFO, as client-go
		// v0.37's), listing.
		Pair{"InformerEndToEnd100k", informerKS(informer.Options[*widget]{}), informerCG},
		// The classic DeltaFIFO, client-go's queue before 1.33.
		Pair{"InformerEndToEnd100k/deltafifo", informerKS(informer.Options[*widget]{Queue: informer.QueueDeltaFIFO}), informerCG},
		// kitchensync configured as client-go v0.37 runs by default:
		// atomic queue and watch-list.
		Pair{"InformerEndToEnd100k/atomic-watchlist", informerKS(informer.Options[*widget]{UseWatchList: true}), informerCG},
	)
	// The server's write path, against client-go's fake clientset's
	// tracker (writes.go).
	for _, w := range []apiservertest.Write{apiservertest.WriteCreate, apiservertest.WriteUpdate, apiservertest.WriteMergePatch} {
		out = append(out, Pair{"ServerWrites/" + string(w), writesKS(w), writesCG(w)})
	}
	// Not against client-go: the reference column is etcd (durable.go),
	// when its binary is built.
	if EtcdBinary() != "" {
		for _, w := range []int{1, 4, 16} {
			out = append(out, Pair{"DurableCreatesVsEtcd/writers=" + strconv.Itoa(w), durableKS(w), durableEtcd(w)})
		}
	}
	// Not against client-go: the reference column is bare channels.
	for _, n := range []int{100, 1000} {
		out = append(out, Pair{"WatchFanOutVsBareChannels/watchers=" + strconv.Itoa(n), fanOutKS(n), fanOutBare(n)})
	}
	return out
}

// keys returns n distinct string keys.
func keys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "ns/item-" + strconv.Itoa(i)
	}
	return out
}
