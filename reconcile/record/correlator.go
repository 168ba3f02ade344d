package record

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// client-go's correlator defaults.
const (
	maxCacheEntries    = 4096
	aggregateMaxEvents = 10
	aggregateInterval  = 10 * time.Minute
	spamBurst          = 25
	spamQPS            = 1.0 / 300
	combinedPrefix     = "(combined from similar events): "
)

// Correlation is the [Correlator]'s verdict on one event.
type Correlation struct {
	// Event is what to write: new, or (with Patch) an existing one again
	// with a higher count.
	Event *builtin.Event
	// Patch, when set, is the merge patch (count, lastTimestamp, message)
	// to apply to the existing Event.Name instead of creating it.
	Patch []byte
	// Skip says the rate limit dropped the event: write nothing.
	Skip bool
}

// Correlator folds repeated events into one, like client-go's
// EventCorrelator (see the package doc). Time comes in as an argument, so
// that its rules are plain functions of now. Safe for concurrent use; the
// zero value is not ready, use [NewCorrelator].
type Correlator struct {
	mu        sync.Mutex // guards the caches
	aggregate *lru[aggregateRecord]
	seen      *lru[seenRecord]
	spam      *lru[*rate.Limiter]
}

type aggregateRecord struct {
	messages map[string]bool
	last     time.Time
}

type seenRecord struct {
	name  string
	count int32
	first meta.Time
}

// NewCorrelator returns a correlator with empty caches.
func NewCorrelator() *Correlator {
	return &Correlator{aggregate: newLRU[aggregateRecord](maxCacheEntries),
		seen: newLRU[seenRecord](maxCacheEntries), spam: newLRU[*rate.Limiter](maxCacheEntries)}
}

// Correlate decides what to write for e, observed at now: e itself, a
// patch of an earlier event, or nothing. e is not modified.
func (c *Correlator) Correlate(e *builtin.Event, now time.Time) Correlation {
	c.mu.Lock()
	defer c.mu.Unlock()
	agg, key := c.aggregateEvent(e, now)
	out, patch := c.observe(agg, key, now)
	if !c.allow(out, now) {
		return Correlation{Skip: true}
	}
	return Correlation{Event: out, Patch: patch}
}

func objectKey(e *builtin.Event) []string {
	r := e.InvolvedObject
	return []string{e.Source.Component, e.Source.Host, r.Kind, r.Namespace, r.Name, r.UID, r.APIVersion}
}

// aggregateEvent counts e's distinct messages per (object, type, reason);
// past aggregateMaxEvents it returns a combined event keyed without the
// message. Must be called with mu held.
func (c *Correlator) aggregateEvent(e *builtin.Event, now time.Time) (*builtin.Event, string) {
	aggKey := strings.Join(append(objectKey(e), e.Type, e.Reason, e.ReportingController, e.ReportingInstance), "\x00")
	eventKey := aggKey + "\x00" + e.Message
	rec, ok := c.aggregate.get(aggKey)
	if !ok || now.Sub(rec.last) > aggregateInterval {
		rec = aggregateRecord{messages: map[string]bool{}}
	}
	rec.messages[e.Message] = true
	rec.last = now
	c.aggregate.add(aggKey, rec)
	if len(rec.messages) < aggregateMaxEvents {
		return e, eventKey
	}
	for m := range rec.messages { // keep the set bounded, as client-go's PopAny
		delete(rec.messages, m)
		break
	}
	out := &builtin.Event{
		ObjectMeta:     meta.ObjectMeta{Name: e.Name, Namespace: e.Namespace},
		InvolvedObject: e.InvolvedObject, Reason: e.Reason, Type: e.Type, Source: e.Source,
		Message: combinedPrefix + e.Message, Count: 1,
		FirstTimestamp: meta.NewTime(now), LastTimestamp: meta.NewTime(now),
		ReportingController: e.ReportingController, ReportingInstance: e.ReportingInstance,
	}
	return out, aggKey
}

// observe finds an earlier event under key: if there is one, it returns
// that event again with count+1 and the patch to write it. Must be called
// with mu held.
func (c *Correlator) observe(e *builtin.Event, key string, now time.Time) (*builtin.Event, []byte) {
	out := e.DeepCopyObject().(*builtin.Event)
	out.Count, out.LastTimestamp = 1, meta.NewTime(now)
	if out.FirstTimestamp.IsZero() {
		out.FirstTimestamp = out.LastTimestamp
	}
	var patch []byte
	if last, ok := c.seen.get(key); ok {
		out.Name, out.FirstTimestamp, out.Count = last.name, last.first, last.count+1
		patch, _ = json.Marshal(map[string]any{"count": out.Count, "lastTimestamp": out.LastTimestamp, "message": out.Message})
	}
	c.seen.add(key, seenRecord{name: out.Name, count: out.Count, first: out.FirstTimestamp})
	return out, patch
}

// allow takes a token from the event's (source, object, type) bucket.
// Must be called with mu held.
func (c *Correlator) allow(e *builtin.Event, now time.Time) bool {
	key := strings.Join(append(objectKey(e), e.Type), "\x00")
	l, ok := c.spam.get(key)
	if !ok {
		l = rate.NewLimiter(rate.Limit(spamQPS), spamBurst) // full: a burst is allowed at once
		c.spam.add(key, l)
	}
	return l.AllowN(now, 1)
}

// eventName is client-go's name for a new event: the object's name and
// the time in hex nanoseconds.
func eventName(objectName string, nanos int64) string {
	return fmt.Sprintf("%s.%x", objectName, nanos)
}
