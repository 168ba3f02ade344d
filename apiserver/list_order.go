package apiserver

import "github.com/kitchensync/kitchensync/apiserver/meta"

// The key order of the latest lists. A list returns its objects sorted by
// namespace and name; sorting is most of the server's work for a large
// list. The real server's watch cache keeps its objects in key order (a
// B-tree), so that a list does not sort; here the server remembers the
// sorted entries of each resource and namespace it listed, and uses them
// again as long as nothing of that resource and namespace was written
// since. A write forgets the orders it makes stale, so that a remembered
// order never keeps replaced objects alive.

// listOrderKept is how many resource and namespace pairs the order is
// remembered for; past that, the remembered orders are forgotten.
const listOrderKept = 64

// listOrderKey is a resource in a namespace ("" for all).
type listOrderKey struct {
	gr meta.GroupResource
	ns string
}

// listOrder is the entries of a resource and namespace at resourceVersion
// rv, sorted by key; shared and read-only.
type listOrder struct {
	rv      int64
	entries []*entry
}

// listOrders are the orders the server remembers. Guarded by the
// server's mu: each method must be called with s.mu held.
type listOrders struct {
	latest map[listOrderKey]listOrder // of the latest lists
	// pages are the sorted entries of the latest paged lists, at their
	// first page's resourceVersion, for the pages that follow.
	pages map[listOrderKey]listOrder
}

// sorted returns the current entries of gr in ns sorted by key, if
// they are remembered (shared: not to be changed).
func (l *listOrders) sorted(gr meta.GroupResource, ns string) ([]*entry, bool) {
	o, ok := l.latest[listOrderKey{gr, ns}]
	return o.entries, ok
}

// forget forgets the remembered orders a write to gr in ns makes stale:
// that of ns and that of all namespaces; and the paged lists' entries
// whose resourceVersion has left the history (is at or below compacted).
func (l *listOrders) forget(gr meta.GroupResource, ns string, compacted int64) {
	for _, key := range [2]listOrderKey{{gr, ns}, {gr, ""}} {
		if len(l.pages) == 0 {
			break // as for most writes: no key to hash
		}
		if o, ok := l.pages[key]; ok && o.rv < compacted {
			delete(l.pages, key) // its pages would be 410 now: keep no replaced object alive for it
		}
	}
	if len(l.latest) == 0 {
		return
	}
	delete(l.latest, listOrderKey{gr, ns})
	delete(l.latest, listOrderKey{gr, ""})
}

// unwrittenSince reports whether the history shows no write to gr in ns
// ("" for any) after rv. It looks at up to catchUpScan events: a list
// after more writes than that sorts again. s.mu must be held.
func (h *history) unwrittenSince(gr meta.GroupResource, ns string, rv int64) bool {
	if rv < h.compacted || h.last-rv > catchUpScan {
		return false
	}
	for r := rv + 1; r <= h.last; r++ {
		if ev := h.at(r); ev == nil || (ev.gr == gr && (ns == "" || ev.ns == ns)) {
			return false
		}
	}
	return true
}

// remember remembers entries, the current entries of gr in ns at rv
// sorted by key, for the lists that follow, unless h shows a write to
// them since. entries must not be changed from now on.
func (l *listOrders) remember(h *history, gr meta.GroupResource, ns string, rv int64, entries []*entry) {
	if l.latest == nil || len(l.latest) >= listOrderKept {
		l.latest = make(map[listOrderKey]listOrder)
	}
	if !h.unwrittenSince(gr, ns, rv) {
		return // written while the list was sorted: stale already
	}
	key := listOrderKey{gr, ns}
	if o, ok := l.latest[key]; !ok || o.rv <= rv {
		l.latest[key] = listOrder{rv, entries}
	}
}

// A paged list reads every page at its first page's resourceVersion: the
// server remembers the sorted entries of the latest paged list of each
// resource and namespace, so that later pages neither rebuild nor sort
// them (N objects in pages cost O(N) in all, not O(N) a page).

// pageSnapshot returns the remembered entries of the paged list of gr in
// ns at rv, if any (shared: not to be changed).
func (l *listOrders) pageSnapshot(gr meta.GroupResource, ns string, rv int64) ([]*entry, bool) {
	o, ok := l.pages[listOrderKey{gr, ns}]
	return o.entries, ok && o.rv == rv
}

// rememberPages remembers entries, the entries of gr in ns at rv sorted
// by key, for the pages of a list that follow. entries must not be
// changed from now on.
func (l *listOrders) rememberPages(gr meta.GroupResource, ns string, rv int64, entries []*entry) {
	if l.pages == nil || len(l.pages) >= listOrderKept {
		l.pages = make(map[listOrderKey]listOrder)
	}
	l.pages[listOrderKey{gr, ns}] = listOrder{rv, entries}
}
