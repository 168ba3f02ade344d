package workqueue

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/trace"
)

// trace records action on item, if anybody listens to the queue's tracer.
// The record's Key is item formatted with %v (a reconcile.Request prints
// as "namespace/name"). Queues call it with their lock held, so that
// records come in the order the queue changed. It converts item to an
// interface only when heard: a silent queue allocates nothing.
func (l *lifecycle[T]) trace(action trace.Action, item T, depth, priority int, d time.Duration) {
	if l.tracer.Enabled() {
		l.emit(action, item, depth, priority, d)
	}
}

func (l *lifecycle[T]) emit(action trace.Action, item T, depth, priority int, d time.Duration) {
	l.tracer.Emit(trace.Record{Component: trace.Workqueue, Name: l.name, Action: action,
		Key: fmt.Sprint(item), Depth: depth, Priority: priority, Duration: d})
}
