package bench

import (
	"sync"
	"testing"
	"time"

	ksq "github.com/kitchensync/kitchensync/workqueue"
	cgq "k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
)

// The Add/Get/Done workload: queueAdds adds over queueKeys distinct keys
// (so most adds are duplicates of an item queued or in flight), split
// between the producers, and 2 workers that Get and Done until the queue
// is shut down and drained.
const (
	queueAdds = 10_000
	queueKeys = 2_500
)

// basicQueue is what the Add/Get/Done workload needs; both libraries'
// queues satisfy it.
type basicQueue interface {
	Add(string)
	Get() (string, bool)
	Done(string)
	ShutDown()
}

func runQueueWorkload(q basicQueue, producers int, ks []string) {
	var workers sync.WaitGroup
	for range 2 {
		workers.Go(func() {
			for {
				item, shutdown := q.Get()
				if shutdown {
					return
				}
				q.Done(item)
			}
		})
	}
	var prod sync.WaitGroup
	per := queueAdds / producers
	for p := range producers {
		prod.Go(func() {
			for i := range per {
				q.Add(ks[(p*per+i*7)%len(ks)])
			}
		})
	}
	prod.Wait()
	q.ShutDown() // workers drain what is queued, then stop
	workers.Wait()
}

// queueBench runs the Add/Get/Done workload, reporting adds/s and the
// process's CPU time per workload (CPUUnit), which, unlike the time,
// hardly depends on what else the machine runs.
func queueBench(producers int, newQ func() basicQueue) func(*testing.B) {
	return func(b *testing.B) {
		ks := keys(queueKeys)
		b.ReportAllocs()
		cpu := ProcessCPU()
		for b.Loop() {
			runQueueWorkload(newQ(), producers, ks)
		}
		cpu = ProcessCPU() - cpu
		b.ReportMetric(float64(queueAdds)*float64(b.N)/b.Elapsed().Seconds(), "adds/s")
		b.ReportMetric(float64(cpu)/1e6/float64(b.N), CPUUnit)
	}
}

func queueKS(producers int) func(*testing.B) {
	return queueBench(producers, func() basicQueue { return ksq.New[string]() })
}

func queueCG(producers int) func(*testing.B) {
	return queueBench(producers, func() basicQueue { return cgq.NewTyped[string]() })
}

// priorityKS and priorityCR are the Add/Get/Done workload on the priority
// queues, kitchensync's and controller-runtime's (whose controllers use it
// when UsePriorityQueue is on); every add has the default priority, and
// neither queue records metrics.
func priorityKS(producers int) func(*testing.B) {
	return queueBench(producers, func() basicQueue { return ksq.NewPriorityQueue[string](nil, ksq.QueueConfig{}) })
}

func priorityCR(producers int) func(*testing.B) {
	// An empty name turns controller-runtime's metrics off.
	return queueBench(producers, func() basicQueue { return priorityqueue.New[string]("") })
}

// rateLimited is AddRateLimited then Forget of one of 1,000 keys per op,
// with client-go's default per-item exponential limiter settings.
type rateLimited interface {
	AddRateLimited(string)
	Forget(string)
	ShutDown()
}

func rateLimitedBench(b *testing.B, q rateLimited) {
	ks := keys(1000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := ks[i%len(ks)]
		q.AddRateLimited(k)
		q.Forget(k)
		i++
	}
	b.StopTimer()
	q.ShutDown()
}

func rateLimitedKS(b *testing.B) {
	rateLimitedBench(b, ksq.NewRateLimiting(ksq.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second), ksq.QueueConfig{}))
}

func rateLimitedCG(b *testing.B) {
	rateLimitedBench(b, cgq.NewTypedRateLimitingQueue(cgq.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second)))
}

// addAfter is Scale AddAfter calls of distinct keys, none due within the
// run (so it measures putting items on the waiting heap). client-go hands
// each add to its waiting loop through a channel of 1,000; the timing ends
// when the last AddAfter returns.
type delaying interface {
	AddAfter(string, time.Duration)
	ShutDown()
}

func addAfterBench(b *testing.B, newQ func() delaying) {
	ks := keys(Scale)
	b.ReportAllocs()
	for b.Loop() {
		q := newQ()
		for i, k := range ks {
			q.AddAfter(k, time.Hour+time.Duration(i)*time.Microsecond)
		}
		b.StopTimer()
		q.ShutDown()
		b.StartTimer()
	}
	b.ReportMetric(float64(Scale)*float64(b.N)/b.Elapsed().Seconds(), "adds/s")
}

func addAfterKS(b *testing.B) {
	addAfterBench(b, func() delaying { return ksq.NewDelaying[string]() })
}

func addAfterCG(b *testing.B) {
	addAfterBench(b, func() delaying { return cgq.NewTypedDelayingQueue[string]() })
}

// addAfterReady is Scale AddAfter calls of distinct keys with delays
// spread over 10ms, and one worker that Gets and Dones every item: the
// clock stops when the last one is done, so both libraries' heap work is
// inside the timing (and so is the 10ms of waiting, for both).
type delayingGetter interface {
	delaying
	basicQueue
}

func addAfterReadyBench(b *testing.B, newQ func() delayingGetter) {
	ks := keys(Scale)
	b.ReportAllocs()
	for b.Loop() {
		q := newQ()
		done := make(chan struct{})
		go func() {
			defer close(done)
			for range ks {
				item, _ := q.Get()
				q.Done(item)
			}
		}()
		for i, k := range ks {
			q.AddAfter(k, time.Duration(i%10_000)*time.Microsecond+time.Microsecond)
		}
		<-done
		b.StopTimer()
		q.ShutDown()
		b.StartTimer()
	}
	b.ReportMetric(float64(Scale)*float64(b.N)/b.Elapsed().Seconds(), "items/s")
}

func addAfterReadyKS(b *testing.B) {
	addAfterReadyBench(b, func() delayingGetter { return ksq.NewDelaying[string]() })
}

func addAfterReadyCG(b *testing.B) {
	addAfterReadyBench(b, func() delayingGetter { return cgq.NewTypedDelayingQueue[string]() })
}
