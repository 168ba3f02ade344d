package liveview

import (
	"sync"

	"github.com/kitchensync/kitchensync/trace"
)

// maxCollected bounds what collected remembers of deletions no informer
// reported (a view whose handlers are gone): it then starts afresh.
const maxCollected = 10000

// collected knows which cooks the API server's garbage collector deleted,
// as opposed to the chef. It hears the server's own trace record,
// synchronously, inside the delete: before any informer can report the
// deletion, so the cooks' informer never outruns it. (The state of the
// order in the runner's cache cannot tell: the two informers run apart.)
type collected struct {
	mu   sync.Mutex
	keys map[string]bool // cook keys deleted by the garbage collector, not yet reported
	on   bool            // the tracer is there: a key not in keys was deleted by a client
}

// note is a [trace.Tracer.Subscribe] function.
func (c *collected) note(rec trace.Record) {
	if rec.Component != trace.APIServer || rec.Action != trace.Deleted ||
		rec.Kind != "Cook" || rec.Detail != trace.GarbageCollector {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.keys == nil || len(c.keys) >= maxCollected {
		c.keys = map[string]bool{}
	}
	c.keys[rec.Key] = true
}

// take reports whether the garbage collector deleted the cook key, and
// forgets it; known is false when the view has no trace to tell.
func (c *collected) take(key string) (byCollector, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	byCollector = c.keys[key]
	delete(c.keys, key)
	return byCollector, c.on
}

// listen subscribes c to t; nil leaves c unknowing.
func (c *collected) listen(t *trace.Tracer) (unsubscribe func()) {
	if t == nil {
		return func() {}
	}
	c.mu.Lock()
	c.on = true
	c.mu.Unlock()
	return t.Subscribe(c.note)
}
