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
// makes stale: that of ns and that of all namespaces. s.mu must be held.
func (s *Server) forgetOrdersLocked(gr meta.GroupResource, ns string) {
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
