package workqueue

import (
	"sync"

	"github.com/kitchensync/kitchensync/trace"
)

// lifecycle is the lock, the in-progress count and the shutdown machinery
// that [Queue] and [PriorityQueue] share: both hand items to workers under
// one mutex, count the items in progress, and shut down the same way.
// It is embedded by value; init must run before use.
type lifecycle[T comparable] struct {
	mu   sync.Mutex
	cond sync.Cond // with L = &mu; signalled when an item becomes ready, when the last item in progress is done, and on shutdown

	// mu guards the fields below.
	processing   int              // number of items a worker got and has not called Done for
	shuttingDown bool             // set once by ShutDown or ShutDownWithDrain
	drain        bool             // ShutDownWithDrain is waiting for processing to reach zero
	metrics      *queueMetrics[T] // nil when metrics are off
	tracer       *trace.Tracer    // nil when tracing is off
	name         string           // the queue's name, for the trace

	stopCh   chan struct{} // closed by the first shutdown; ends background goroutines
	stopOnce sync.Once
	wg       sync.WaitGroup // background goroutines (timer and metrics loops)
}

// init prepares l and, if the queue has metrics (configured by cfg), starts
// the goroutine that refreshes the unfinished-work gauges until shutdown.
func (l *lifecycle[T]) init(cfg QueueConfig) {
	l.cond.L = &l.mu
	l.metrics = newQueueMetrics[T](cfg.MetricsProvider, cfg.Name)
	l.tracer, l.name = cfg.Tracer, cfg.Name
	l.stopCh = make(chan struct{})
	if l.metrics != nil {
		startUnfinishedWorkLoop(&l.wg, l.stopCh, l.updateUnfinishedWork)
	}
}

// startProcessing counts item as handed to a worker. It must be called
// with mu held.
func (l *lifecycle[T]) startProcessing(item T) {
	l.processing++
	l.metrics.get(item)
}

// finishProcessing counts item as done, and wakes a ShutDownWithDrain
// waiting for the last item in progress. It must be called with mu held.
func (l *lifecycle[T]) finishProcessing(item T) {
	l.metrics.done(item)
	l.processing--
	if l.processing == 0 && l.drain {
		l.cond.Broadcast()
	}
}

// shutDown makes the queue ignore new adds, wakes every Get, and ends the
// background goroutines. With drain, it first waits until no item is in
// progress; a concurrent shutDown without drain ends that wait.
func (l *lifecycle[T]) shutDown(drain bool) {
	l.stopOnce.Do(func() { close(l.stopCh) })
	l.mu.Lock()
	l.drain = drain
	l.shuttingDown = true
	l.cond.Broadcast()
	for l.processing != 0 && l.drain {
		l.cond.Wait()
	}
	l.mu.Unlock()
	l.wg.Wait()
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (l *lifecycle[T]) ShuttingDown() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.shuttingDown
}

// updateUnfinishedWork refreshes the unfinished-work gauges; the metrics
// loop calls it.
func (l *lifecycle[T]) updateUnfinishedWork() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.shuttingDown {
		l.metrics.updateUnfinishedWork()
	}
}
