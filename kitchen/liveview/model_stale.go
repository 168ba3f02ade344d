package liveview

import (
	"fmt"
	"strconv"

	"github.com/kitchensync/kitchensync/trace"
)

// The stale chef: the chef's controller skips a ticket whose caches do
// not show the chef's own last writes for the order yet
// (reconcile.Options.Freshness, trace.StaleSkipped). The trace says which
// order, not which write: the view follows the writes of each order and
// of its cooks at the API server, and how far the runner's caches have
// got (the resourceVersion of the newest event each has taken in, as its
// LastStoreSyncResourceVersion), and names the write the cache lags.

// wrote files a write of the API server: the newest resourceVersion of
// each order and of its cooks. It must be called with mu held.
func (m *model) wrote(rec trace.Record) {
	rv, err := strconv.ParseUint(rec.ResourceVersion, 10, 64)
	if err != nil {
		return
	}
	var o *orderView
	switch rec.Kind {
	case "Order":
		o = m.orders[rec.Key]
		if o != nil {
			o.wroteOrder = max(o.wroteOrder, rv)
		}
	case "Cook":
		if o = m.orders[m.ownerOf(rec.Key)]; o != nil {
			o.wroteCooks, o.wroteCook = max(o.wroteCooks, rv), rec.Key
		}
	}
}

// cached files that the runner's cache of res has taken in an object at
// rv. It must be called with mu held.
func (m *model) cached(res, rv string) {
	v, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return
	}
	if m.cacheRV == nil {
		m.cacheRV = map[string]uint64{}
	}
	m.cacheRV[res] = max(m.cacheRV[res], v)
}

// staleSkip says why the chef skipped the order key: the write its cache
// lags, or both caches' resourceVersions. It must be called with mu held.
func (m *model) staleSkip(key string) (text, rv, class string) {
	m.counts.StaleSkips++
	o := m.orders[key]
	cooks, orders := m.cacheRV["cooks"], m.cacheRV["orders"]
	switch {
	case o != nil && o.wroteCooks > cooks:
		_, name := splitKey(o.wroteCook)
		return fmt.Sprintf("stale skip: the chef wrote cook %s at rv %d, the runner's cooks cache is at rv %d: the ticket goes back on the rail",
			name, o.wroteCooks, cooks), strconv.FormatUint(o.wroteCooks, 10), "stale"
	case o != nil && o.wroteOrder > orders:
		return fmt.Sprintf("stale skip: the order was written at rv %d, the runner's orders cache is at rv %d: the ticket goes back on the rail",
			o.wroteOrder, orders), strconv.FormatUint(o.wroteOrder, 10), "stale"
	}
	return fmt.Sprintf("stale skip: the runner's caches (orders at rv %d, cooks at rv %d) lag the chef's last writes: the ticket goes back on the rail",
		orders, cooks), "", "stale"
}
