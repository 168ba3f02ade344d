package httpapi

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// DefaultMaxRequestBytes is how much of a request body the handler reads,
// as kube-apiserver's --max-request-bytes (3 MiB): a longer body is
// refused with 413 before it is decoded. An object under it but over the
// server's own limit ([apiserver.Options.MaxObjectBytes], etcd's 1.5 MiB)
// is refused by the server, as etcd refuses it.
const DefaultMaxRequestBytes = 3 << 20

// requestSlackBytes is how far past the server's object limit a request
// body may run: JSON as clients send it is often longer than as stored.
const requestSlackBytes = 64 << 10

// Handler serves an [apiserver.Server] over HTTP with the Kubernetes REST
// protocol, so that kubectl and other HTTP clients can talk to it: it is
// what kube-apiserver's endpoint handlers are to its storage. Make one
// with [NewHandler] and mount it at the root of an [http.Server] (the
// paths are the Kubernetes ones: /api, /apis, /version).
//
// A Handler is safe for concurrent use. Each request runs on its caller's
// goroutine; a watch holds that goroutine until the client goes away, the
// watch times out or the server ends it, and leaves nothing behind.
type Handler struct {
	srv         *apiserver.Server
	maxBytes    int64
	now         func() time.Time
	acceptHosts []*regexp.Regexp // nil: loopback names only
	token       string           // "": no authentication
	encoded     encodedEvents    // the latest watch events' JSON lines and protobuf frames, shared by watchers
	initial     initialSnapshots // the latest watches' initial events, shared by watchers
}

// Defaults of the [Handler] options.
const (
	// DefaultWatchTimeout is how long, at least, a watch that asks for no
	// timeoutSeconds stays open: like kube-apiserver's
	// --min-request-timeout, such a watch ends cleanly after between one
	// and two times this (spread, so that clients do not all re-watch at
	// once), and the client watches again from where it was.
	DefaultWatchTimeout = 30 * time.Minute
	// DefaultBodyReadTimeout is how long a client has to send a request
	// body once its headers are in, as kube-apiserver's one-minute
	// request timeout allows; a slower body is cut off.
	DefaultBodyReadTimeout = time.Minute
)

// Option configures a [Handler].
type Option func(*Handler)

// WithMaxRequestBytes caps the request bodies the handler reads. The
// default is [DefaultMaxRequestBytes], or the server's
// [apiserver.Options.MaxObjectBytes] plus 64 KiB if that is more. The
// handler refuses longer bodies with 413 without reading them, and the
// server refuses objects over its own limit.
func WithMaxRequestBytes(n int64) Option {
	return func(h *Handler) {
		if n > 0 {
			h.maxBytes = n
		}
	}
}

// WithClock sets where the handler reads the time that the Age column of
// a table counts from (default [time.Now]).
func WithClock(now func() time.Time) Option {
	return func(h *Handler) {
		if now != nil {
			h.now = now
		}
	}
}

// NewHandler returns a handler serving srv's registered kinds.
func NewHandler(srv *apiserver.Server, opts ...Option) *Handler {
	maxBytes := max(DefaultMaxRequestBytes, int64(srv.Options().MaxObjectBytes)+requestSlackBytes)
	h := &Handler{srv: srv, maxBytes: maxBytes, now: time.Now}
	for _, opt := range opts {
		opt(h)
	}
	return h
}

// ServeHTTP lets in the requests the door admits (see [WithAcceptHosts]
// and [WithBearerToken]) and routes each: discovery, version, or a
// resource. A watch streams from here, once the routing has returned
// (see [watchStream]).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ws := h.route(w, r); ws != nil {
		ws.run()
	}
}

// route serves a request, or starts the watch it asks for and returns it.
func (h *Handler) route(w http.ResponseWriter, r *http.Request) *watchStream {
	if !h.admit(w, r) {
		return nil
	}
	segs := splitPath(r.URL.Path)
	switch {
	case len(segs) == 1 && segs[0] == "version":
		h.serveDiscovery(w, r, h.version)
	case len(segs) >= 1 && segs[0] == "api":
		return h.serveGroup(w, r, "", segs[1:])
	case len(segs) >= 2 && segs[0] == "apis" && segs[1] != "":
		return h.serveGroup(w, r, segs[1], segs[2:])
	case len(segs) == 1 && segs[0] == "apis":
		h.serveDiscovery(w, r, h.groupList)
	case len(segs) >= 1 && segs[0] == "openapi":
		h.serveOpenAPI(w, r, segs)
	default:
		writeError(w, errNotFound())
	}
	return nil
}

// serveGroup serves what lies under /api (group "") or /apis/{group}:
// rest holds the version, then the resource path. It returns the watch
// to stream, if the request started one.
func (h *Handler) serveGroup(w http.ResponseWriter, r *http.Request, group string, rest []string) *watchStream {
	switch {
	case len(rest) == 0 && group == "":
		h.serveDiscovery(w, r, h.coreVersions)
	case len(rest) == 0:
		h.serveDiscovery(w, r, func() (any, error) { return h.group(group) })
	case len(rest) == 1:
		h.serveDiscovery(w, r, func() (any, error) { return h.resourceList(group, rest[0]) })
	default:
		t, err := h.parseTarget(meta.GroupVersion{Group: group, Version: rest[0]}, rest[1:])
		if err != nil {
			writeError(w, err)
			return nil
		}
		return h.serveResource(w, r, t)
	}
	return nil
}

// splitPath splits a URL path into its segments; "/apis/g/v" gives
// ["apis", "g", "v"]. Empty segments are kept, so that "//" finds no
// route.
func splitPath(p string) []string {
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// target is what a resource path names: a kind, and optionally a
// namespace, an object and a subresource.
type target struct {
	info meta.KindInfo
	// namespaced is true when the path had /namespaces/{ns}/.
	namespaced bool
	namespace  string
	name       string
	// subresource is "", "status" or (for namespaces) "finalize".
	subresource string
	path        string
	// served is set for a resource served in a second version (see
	// served.go): info is then that version's, stored the kind whose
	// objects it shows.
	served *meta.ServedVersion
	stored meta.KindInfo
	// includeObject is the request's includeObject parameter: what a
	// Table's rows carry (see [target.rowObject]).
	includeObject string
}

// parseTarget reads the path after /apis/{group}/{version}:
//
//	{resource}[/{name}[/status|/finalize]]             cluster-scoped, or a list across namespaces
//	namespaces/{ns}/{resource}[/{name}[/status]]       namespaced
//
// Anything else, or a kind that does not fit the form, is 404 NotFound.
func (h *Handler) parseTarget(gv meta.GroupVersion, rest []string) (target, error) {
	var t target
	if slices.Contains(rest, "") {
		return t, errNotFound()
	}
	if len(rest) >= 3 && rest[0] == "namespaces" && !namespaceSubresource(gv, rest) {
		// A copy: the objects written keep their namespace, and a piece
		// of the path would keep the whole request line with it.
		t.namespaced, t.namespace, rest = true, strings.Clone(rest[1]), rest[2:]
	}
	if len(rest) > 3 {
		return t, errNotFound()
	}
	gvr := meta.GroupVersionResource{Group: gv.Group, Version: gv.Version, Resource: rest[0]}
	info, ok := h.srv.Scheme().KindForResource(gvr)
	ok = ok && !info.NotServed
	if st, served := h.servedTarget(gvr); !ok && served {
		t.served, t.stored, info, ok = st.served, st.stored, st.info, true
	}
	if !ok || t.namespaced != info.Namespaced && (t.namespaced || len(rest) > 1) {
		return t, errNotFound()
	}
	t.info = info
	if len(rest) > 1 {
		t.name = rest[1]
	}
	if len(rest) > 2 {
		t.subresource = rest[2]
		if !(t.subresource == "status" && hasStatus(info) || t.subresource == "finalize" && hasFinalize(info) ||
			t.subresource == "scale" && info.Scale != nil) {
			// As for a custom resource: the object is "not found".
			return t, meta.NewNotFound(info.GroupResource(), t.name)
		}
	}
	return t, nil
}

// namespaceSubresource reports whether rest names a subresource of a
// namespace (/api/v1/namespaces/{name}/status or /finalize), not a
// collection in it: no core resource has those names.
func namespaceSubresource(gv meta.GroupVersion, rest []string) bool {
	return gv.Group == "" && len(rest) == 3 && (rest[2] == "status" || rest[2] == "finalize")
}

// client returns the server's client for the target's resource (the
// stored kind's, for a served version) and namespace.
func (h *Handler) client(t target) *apiserver.ResourceClient {
	return h.srv.Resource(t.storedInfo().GroupVersionResource()).Namespace(t.namespace)
}

// hasFinalize reports whether a kind has the finalize subresource: the
// kind of namespaces, if the server can run their lifecycle.
func hasFinalize(info meta.KindInfo) bool {
	_, ok := info.New().(namespaces.Object)
	return ok && info.GroupVersionResource() == namespaces.Resource
}

// hasStatus reports whether a kind has a status subresource: a Go type
// with a field named Status, or a kind that says it has one (a custom
// resource's, see [meta.KindInfo.StatusSubresource]).
func hasStatus(info meta.KindInfo) bool {
	return info.HasStatusSubresource()
}
