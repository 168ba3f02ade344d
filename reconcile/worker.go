package reconcile

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/kitchensync/kitchensync/workqueue"
)

// processNextWorkItem takes one request off the queue and reconciles it. It
// returns false once the queue is shut down and empty, or once ctx is done:
// requests still queued at shutdown are dropped rather than reconciled
// with a cancelled context, as controller-runtime's priority queue does.
// Because the queue never hands a key to two workers at once, and Done is
// called only after the reconcile, a key is never reconciled twice
// concurrently.
func (c *Controller) processNextWorkItem(ctx context.Context, worker int) bool {
	req, priority, shutdown := c.queue.GetWithPriority()
	if shutdown {
		return false
	}
	defer c.queue.Done(req)
	if ctx.Err() != nil {
		return false
	}
	if c.fresh != nil && !c.fresh.EnsureReady(req.NamespacedName) {
		// The caches do not show this controller's last writes for req
		// yet: acting now could repeat them. Try again, backing off.
		c.metrics.staleSkips.Add(1)
		c.traceStaleSkipped(req, worker)
		c.log.Debug("Cache older than our writes; reconcile skipped", "namespace", req.Namespace, "name", req.Name)
		again := workqueue.AddOpts{RateLimited: true, Priority: &priority}
		if c.retry > 0 {
			again = workqueue.AddOpts{After: c.retry, Priority: &priority}
		}
		c.queue.AddWithOpts(again, req)
		return true
	}
	c.metrics.active.Add(1)
	defer c.metrics.active.Add(-1)
	c.reconcileHandler(ctx, req, priority, worker)
	return true
}

// reconcileHandler calls the reconciler and acts on what it returned, with
// controller-runtime's rules:
//
//   - an error: requeue rate-limited (the Result is ignored), unless it is
//     terminal: then forget the key's backoff and do not requeue;
//   - RequeueAfter > 0: forget the backoff, then add after that long;
//   - otherwise: forget the backoff; the key waits for its next event.
func (c *Controller) reconcileHandler(ctx context.Context, req Request, priority, worker int) {
	log := c.log.With("namespace", req.Namespace, "name", req.Name)
	c.traceStarted(req, worker)
	start := time.Now()
	res, err := c.reconcile(withLogger(ctx, log), req, log)
	elapsed := time.Since(start)
	c.metrics.observe(elapsed)
	if res.Priority != nil {
		priority = *res.Priority
	}
	var result string
	switch {
	case err != nil:
		result = "error"
		c.metrics.errors.Add(1)
		c.metrics.errored.Add(1)
		if IsTerminal(err) {
			c.metrics.terminal.Add(1)
			c.queue.Forget(req)
		} else {
			c.queue.AddWithOpts(workqueue.AddOpts{RateLimited: true, Priority: &priority}, req)
		}
		if res.RequeueAfter > 0 {
			log.Warn("Reconciler returned both a RequeueAfter and an error; the RequeueAfter is ignored",
				"requeueAfter", res.RequeueAfter)
		}
		log.Error("Reconciler error", "error", err, "terminal", IsTerminal(err))
	case res.RequeueAfter > 0:
		result = "requeue_after"
		c.metrics.requeueAfter.Add(1)
		c.queue.Forget(req)
		c.queue.AddWithOpts(workqueue.AddOpts{After: res.RequeueAfter, Priority: &priority}, req)
	default:
		result = "success"
		c.metrics.success.Add(1)
		c.queue.Forget(req)
	}
	c.traceFinished(req, worker, result, res, err, elapsed)
	log.Debug("Reconcile done", "result", result, "requeueAfter", res.RequeueAfter, "duration", elapsed)
}

// reconcile calls the reconciler, turning a panic into an error: the panic
// is logged with its stack and counted, and the request is retried like
// any other failure (controller-runtime's RecoverPanic, on by default).
func (c *Controller) reconcile(ctx context.Context, req Request, log *slog.Logger) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.metrics.panics.Add(1)
			log.Error("Observed a panic in reconciler", "panic", r, "stack", string(debug.Stack()))
			res, err = Result{}, recoveredPanic{r}
		}
	}()
	return c.do.Reconcile(ctx, req)
}

// recoveredPanic is the error a reconcile that panicked returns.
type recoveredPanic struct{ value any }

func (p recoveredPanic) Error() string { return fmt.Sprintf("panic: %v [recovered]", p.value) }

type loggerKey struct{}

func withLogger(ctx context.Context, log *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, log)
}

// LoggerFrom returns the logger a [Controller] put in the context it passes
// to Reconcile: the controller's logger with the request's namespace and
// name attached. Outside a reconcile it returns a logger that discards
// everything. Like controller-runtime's log.FromContext.
func LoggerFrom(ctx context.Context) *slog.Logger {
	if log, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return log
	}
	return slog.New(slog.DiscardHandler)
}
