package apiserver

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// continueToken is what a continue string encodes (base64 of JSON), in the
// shape Kubernetes uses: the resourceVersion of the first page, and the
// key to start after.
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

func encodeContinue(rv int64, last meta.Object) string {
	m := last.GetObjectMeta()
	b, _ := json.Marshal(continueToken{"meta.k8s.io/v1", rv, objectKey(m.Namespace, m.Name) + "\x00"})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeContinue(s string) (continueToken, error) {
	var tok continueToken
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &tok)
	}
	if err == nil && (tok.APIVersion != "meta.k8s.io/v1" || tok.ResourceVersion <= 0 || tok.StartKey == "") {
		err = fmt.Errorf("unexpected content")
	}
	if err != nil {
		return tok, meta.NewBadRequest(fmt.Sprintf("continue key is not valid: %v", err))
	}
	return tok, nil
}

// errListTooOld is kube-apiserver's 410 (its storage's) for an exact list
// at a resourceVersion compacted away.
var errListTooOld = meta.NewResourceExpired("The resourceVersion for the provided list is too old.")

// errContinueExpired is Kubernetes' 410 for a continue token whose first
// page's resourceVersion has been compacted away.
var errContinueExpired = meta.NewResourceExpired("The provided continue parameter is too old to display a consistent list result. " +
	"You can start a new list without the continue parameter.")

// List returns the objects selected by opts, sorted by namespace then
// name, with the resourceVersion they were read at.
//
// ResourceVersion: "" and "0" read the latest state; N (with
// ResourceVersionMatch unset or NotOlderThan) also reads the latest state,
// which is never older than N here; N with ResourceVersionMatchExact
// reads the state exactly at N, rebuilt from the history (410 Expired
// once compacted). An N the server has not reached yet (also in a
// continue token) is waited for, as the Kubernetes watch cache waits to
// catch up: up to 3 seconds, then 504 Timeout "Too large resource
// version: N, current: M" (retry after 1 second); if the server gets
// there in time, the list is served as usual.
//
// Paging: with Limit, a page holds at most Limit items, and
// ListMeta.Continue fetches the next one. Every page is read at the first
// page's resourceVersion, as etcd does, so pages are consistent; once
// that resourceVersion leaves the history window the token is refused
// with 410 Expired: list again from the start.
func (c *ResourceClient) List(ctx context.Context, opts meta.ListOptions) (*meta.List, error) {
	info, err := c.begin(ctx, VerbList)
	if err != nil {
		return nil, err
	}
	return c.list(ctx, info, opts)
}

// list is List once the request is counted.
func (c *ResourceClient) list(ctx context.Context, info meta.KindInfo, opts meta.ListOptions) (*meta.List, error) {
	list, selected, err := c.listEntries(ctx, info, opts)
	if err != nil {
		return nil, err
	}
	for _, e := range selected {
		list.Items = append(list.Items, e.obj.DeepCopyObject())
	}
	return list, nil
}

// listEntries is list without the copies: the list's metadata (Items
// empty) and the selected entries, which must not be mutated.
func (c *ResourceClient) listEntries(ctx context.Context, info meta.KindInfo, opts meta.ListOptions) (*meta.List, []*entry, error) {
	if err := validateListOptions(opts); err != nil {
		return nil, nil, err
	}
	sel, err := parseSelectors(info, opts)
	if err != nil {
		return nil, nil, err
	}
	at, err := listStart(opts)
	if err != nil {
		return nil, nil, err
	}
	if err := c.srv.waitForRV(ctx, at.rv); err != nil {
		return nil, nil, err
	}
	entries, rv, sorted, err := c.srv.snapshot(info.GroupResource(), c.ns, at)
	if err = cmp.Or(err, c.srv.awaitDurable(rv)); err != nil { // answers once what it shows is on the disk
		return nil, nil, err
	}
	if !sorted {
		sortEntries(entries)
		if !at.exact {
			c.srv.rememberOrder(info.GroupResource(), c.ns, rv, entries)
		}
	}
	if c.srv.opts.CacheMutationDetector {
		for _, e := range entries {
			m := e.obj.GetObjectMeta()
			if err := checkShared(info.GroupResource(), objectKey(m.Namespace, m.Name), e); err != nil {
				return nil, nil, err
			}
		}
	}
	list, selected := selectPage(info, sel, entries, rv, at.after, opts.Limit)
	if list.Continue != "" {
		c.srv.rememberPages(info.GroupResource(), c.ns, rv, entries)
	}
	return list, selected, nil
}

// selectPage picks, from entries sorted by key, the page of those selected, after
// the key of after (if any), at most limit of them (if > 0), with a
// continue token when more remain. It returns the list's metadata (Items
// empty) and the selected entries, which must not be mutated.
func selectPage(info meta.KindInfo, sel selectors, entries []*entry, rv int64, after meta.Object, limit int64) (*meta.List, []*entry) {
	list := &meta.List{
		TypeMeta: meta.TypeMeta{APIVersion: info.TypeMeta().APIVersion, Kind: info.Kind + "List"},
		ListMeta: meta.ListMeta{ResourceVersion: formatRV(rv)},
		Items:    []meta.Object{},
	}
	var selected []*entry
	from := 0
	if after != nil { // the first key after it: entries are sorted
		from = sort.Search(len(entries), func(i int) bool { return compareKeys(entries[i].obj, after) > 0 })
	}
	for i := from; i < len(entries); i++ {
		e := entries[i]
		if !sel.matches(info, e.obj) {
			continue
		}
		if limit > 0 && int64(len(selected)) == limit {
			list.Continue = encodeContinue(rv, selected[len(selected)-1].obj)
			if sel.empty() {
				n := int64(len(entries) - i)
				list.RemainingItemCount = &n
			}
			break
		}
		selected = append(selected, e)
	}
	return list, selected
}

// readPoint says which state a list reads: the latest (exact false, rv the
// minimum acceptable) or exactly rv, and for a continued list the key
// after which the page starts.
type readPoint struct {
	rv    int64
	exact bool
	cont  bool
	after meta.Object // only namespace and name are set
}

// listStart works out the readPoint of a list from its options.
func listStart(opts meta.ListOptions) (readPoint, error) {
	if opts.Continue != "" {
		if opts.ResourceVersion != "" {
			return readPoint{}, meta.NewBadRequest("specifying resource version is not allowed when using continue")
		}
		tok, err := decodeContinue(opts.Continue)
		if err != nil {
			return readPoint{}, err
		}
		key := strings.TrimSuffix(tok.StartKey, "\x00")
		after := &meta.Status{}
		if ns, name, ok := strings.Cut(key, "/"); ok {
			after.Namespace, after.Name = ns, name
		} else {
			after.Name = key
		}
		return readPoint{rv: tok.ResourceVersion, exact: true, cont: true, after: after}, nil
	}
	if opts.ResourceVersion == "" || opts.ResourceVersion == "0" {
		return readPoint{}, nil
	}
	rv, ok := parseRV(opts.ResourceVersion)
	if !ok {
		return readPoint{}, errBadRV(opts.ResourceVersion)
	}
	return readPoint{rv: rv, exact: opts.ResourceVersionMatch == meta.ResourceVersionMatchExact}, nil
}

// validateListOptions rejects the combinations Kubernetes rejects, with
// its messages.
func validateListOptions(opts meta.ListOptions) error {
	var errs meta.FieldErrors
	if match := opts.ResourceVersionMatch; match != "" {
		if opts.ResourceVersion == "" {
			errs.Forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided")
		}
		if opts.Continue != "" {
			errs.Forbidden("resourceVersionMatch", "resourceVersionMatch is forbidden when continue is provided")
		}
		if match != meta.ResourceVersionMatchExact && match != meta.ResourceVersionMatchNotOlderThan {
			errs.NotSupported("resourceVersionMatch", string(match), []string{
				string(meta.ResourceVersionMatchExact), string(meta.ResourceVersionMatchNotOlderThan), ""})
		}
		if match == meta.ResourceVersionMatchExact && opts.ResourceVersion == "0" {
			errs.Forbidden("resourceVersionMatch", `resourceVersionMatch "exact" is forbidden for resourceVersion "0"`)
		}
	}
	if opts.SendInitialEvents != nil {
		errs.Forbidden("sendInitialEvents", "sendInitialEvents is forbidden for list")
	}
	return errInvalidOptions(errs)
}

// snapshot returns the entries of resource gr in namespace ns ("" for all)
// at the read point, and the resourceVersion they were read at: sorted by
// key and shared (see [listOrders.sorted]), or unsorted and the
// caller's. A past state is rebuilt by undoing, newest first, the events
// after it.
func (s *Server) snapshot(gr meta.GroupResource, ns string, at readPoint) (entries []*entry, rv int64, sorted bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := s.hist.last
	switch {
	case at.rv > last:
		return nil, 0, false, errTooLargeRV(at.rv, last)
	case at.exact && at.rv < max(s.hist.compacted, s.hist.listFloor) && at.cont:
		return nil, 0, false, errContinueExpired
	case at.exact && at.rv < max(s.hist.compacted, s.hist.listFloor):
		return nil, 0, false, errListTooOld
	}
	if entries, ok := s.orders.pageSnapshot(gr, ns, at.rv); ok && at.cont {
		return entries, at.rv, true, nil
	}
	if !at.exact {
		if entries, ok := s.orders.sorted(gr, ns); ok {
			return entries, last, true, nil
		}
		return s.currentLocked(gr, ns), last, false, nil
	}
	state := make(map[string]*entry)
	for key, e := range s.objects[gr] {
		if ns == "" || e.obj.GetObjectMeta().Namespace == ns {
			state[key] = e
		}
	}
	for r := last; r > at.rv; r-- {
		ev := s.hist.at(r)
		if ev.gr != gr || (ns != "" && ev.ns != ns) {
			continue
		}
		if ev.prev == nil {
			delete(state, ev.key)
		} else {
			state[ev.key] = ev.prev
		}
	}
	return slices.Collect(maps.Values(state)), at.rv, false, nil
}

// rememberOrder remembers entries, the current entries of gr in ns at rv
// sorted by key, for the lists that follow (see [listOrders.remember]).
func (s *Server) rememberOrder(gr meta.GroupResource, ns string, rv int64, entries []*entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.orders.remember(s.hist, gr, ns, rv, entries)
}

// rememberPages remembers entries, the entries of gr in ns at rv sorted
// by key, for the pages of a list that follow.
func (s *Server) rememberPages(gr meta.GroupResource, ns string, rv int64, entries []*entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.orders.rememberPages(gr, ns, rv, entries)
}
