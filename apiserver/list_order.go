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

// sortedLocked returns the current entries of gr in ns sorted by key, if
// the server remembers them (shared: not to be changed). s.mu must be
// held.
func (s *Server) sortedLocked(gr meta.GroupResource, ns string) ([]*entry, bool) {
	o, ok := s.orders[listOrderKey{gr, ns}]
	return o.entries, ok
}

// forgetOrdersLocked forgets the remembered orders a write to gr in ns
// makes stale: that of ns and that of all namespaces; and the paged
// lists' entries whose resourceVersion has left the history. s.mu must
// be held.
func (s *Server) forgetOrdersLocked(gr meta.GroupResource, ns string) {
	for _, key := range [2]listOrderKey{{gr, ns}, {gr, ""}} {
		if o, ok := s.pages[key]; ok && o.rv < s.hist.compacted {
			delete(s.pages, key) // its pages would be 410 now: keep no replaced object alive for it
		}
	}
	if len(s.orders) == 0 {
		return
	}
	delete(s.orders, listOrderKey{gr, ns})
	delete(s.orders, listOrderKey{gr, ""})
}

// unwrittenSinceLocked reports whether the history shows no write to gr
// in ns ("" for any) after rv. It looks at up to catchUpScan events: a
// list after more writes than that sorts again. s.mu must be held.
func (s *Server) unwrittenSinceLocked(gr meta.GroupResource, ns string, rv int64) bool {
	if rv < s.hist.compacted || s.hist.last-rv > catchUpScan {
		return false
	}
	for r := rv + 1; r <= s.hist.last; r++ {
		if ev := s.hist.at(r); ev == nil || (ev.gr == gr && (ns == "" || ev.ns == ns)) {
			return false
		}
	}
	return true
}

// rememberOrder remembers entries, the current entries of gr in ns at rv
// sorted by key, for the lists that follow. entries must not be changed
// from now on.
func (s *Server) rememberOrder(gr meta.GroupResource, ns string, rv int64, entries []*entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.orders == nil || len(s.orders) >= listOrderKept {
		s.orders = make(map[listOrderKey]listOrder)
	}
	if !s.unwrittenSinceLocked(gr, ns, rv) {
		return // written while the list was sorted: stale already
	}
	key := listOrderKey{gr, ns}
	if o, ok := s.orders[key]; !ok || o.rv <= rv {
		s.orders[key] = listOrder{rv, entries}
	}
}

// A paged list reads every page at its first page's resourceVersion: the
// server remembers the sorted entries of the latest paged list of each
// resource and namespace, so that later pages neither rebuild nor sort
// them (N objects in pages cost O(N) in all, not O(N) a page).

// pageSnapshotLocked returns the remembered entries of the paged list of
// gr in ns at rv, if any (shared: not to be changed). s.mu must be held.
func (s *Server) pageSnapshotLocked(gr meta.GroupResource, ns string, rv int64) ([]*entry, bool) {
	o, ok := s.pages[listOrderKey{gr, ns}]
	return o.entries, ok && o.rv == rv
}

// rememberPages remembers entries, the entries of gr in ns at rv sorted
// by key, for the pages of a list that follow. entries must not be
// changed from now on.
func (s *Server) rememberPages(gr meta.GroupResource, ns string, rv int64, entries []*entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pages == nil || len(s.pages) >= listOrderKept {
		s.pages = make(map[listOrderKey]listOrder)
	}
	s.pages[listOrderKey{gr, ns}] = listOrder{rv, entries}
}
