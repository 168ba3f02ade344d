// Package httpapi puts the Kubernetes REST protocol in front of an
// in-memory [apiserver.Server], so that kubectl, curl or any Kubernetes
// HTTP client can talk to it.
//
// In the kitchen, the API server is the front desk with its order book;
// this package is the front desk's phone line. kubectl calls in and
// speaks REST: "GET /apis/menu.example.com/v1/namespaces/default/orders,
// please, as a table". The person at the phone looks in the same order
// book everyone else uses, answers in the same words the real Kubernetes
// front desk would, and, for a caller who says "keep me posted" (a
// watch), stays on the line reading out every change until the caller
// hangs up.
//
// # Routes
//
// [NewHandler] returns an [http.Handler] to mount at the root of a server.
// It serves, for the kinds registered in the server's scheme:
//
//	GET  /version                    version.Info (the server speaks the 1.32 API)
//	GET  /api, /apis                 APIVersions (core kinds only), APIGroupList
//	GET  /apis/{group}[/{version}]   APIGroup, APIResourceList (with "{resource}/status")
//	GET  /openapi/v3[/apis/{g}/{v}]  OpenAPI for kubectl create, apply and explain (schemas)
//
// and for each resource, under /apis/{group}/{version} (or /api/v1):
//
//	GET    .../{resource}                        list (or watch) across namespaces
//	GET    .../namespaces/{ns}/{resource}        list, or watch with ?watch=true
//	POST   .../namespaces/{ns}/{resource}        create (201)
//	GET    .../namespaces/{ns}/{resource}/{name} get
//	PUT    .../{name}                            update
//	PATCH  .../{name}                            merge patch (application/merge-patch+json),
//	                                             JSON patch (application/json-patch+json)
//	                                             or server-side apply (application/apply-patch+yaml)
//	DELETE .../{name}                            delete, with DeleteOptions in the body
//	GET, PUT, PATCH .../{name}/status            the status subresource
//
// Cluster-scoped kinds drop the namespaces/{ns} part. The query
// parameters are Kubernetes' own: labelSelector, fieldSelector,
// resourceVersion, resourceVersionMatch, limit, continue, watch,
// allowWatchBookmarks, sendInitialEvents, timeoutSeconds, dryRun=All,
// fieldManager (default: the user agent up to its first "/"), force and
// fieldValidation (Ignore, Warn — the default, answered with Warning
// headers — or Strict, which kubectl sends). Bodies are JSON, decoded into
// the kind's Go type, or protobuf (below).
//
// A client that asks for "application/json;as=Table;v=v1;g=meta.k8s.io",
// as kubectl get does, gets a meta.k8s.io/v1 Table. The built-in kinds
// have kube-apiserver's printer columns (events LAST SEEN, TYPE, REASON,
// OBJECT, MESSAGE; leases NAME, HOLDER, AGE; namespaces NAME, STATUS,
// AGE); every other kind has Name, one per extra field selector of the
// kind (what --field-selector can match), and Age. That is why kubectl get
// prints the server's columns, not its own. Each row carries what the
// includeObject parameter asks for: the object's metadata (the default),
// the whole object (Object: what kubectl get --sort-by sends, and sorts
// by), or nothing (None).
//
// Create and update bodies may also come in Kubernetes' protobuf envelope
// ("application/vnd.kubernetes.protobuf", what client-go's typed clients
// send for built-in kinds) for a kind whose objects read it (an
// UnmarshalProtobuf([]byte) error method, as package builtin's kinds
// have); other kinds answer such a body 415. So may a delete's
// DeleteOptions. When Accept puts protobuf before any JSON, as client-go's
// typed clients do, a kind that writes protobuf (a MarshalProtobuf()
// ([]byte, error) method: builtin's Lease, Event and Namespace) is
// answered in it throughout: objects, lists (LeaseList, ...), watch
// streams ("application/vnd.kubernetes.protobuf;stream=watch": each event
// a 4-byte big-endian length and a WatchEvent message whose object is a
// whole protobuf body) and error Statuses. Other kinds are answered in
// JSON, which client-go reads by the Content-Type, and an Accept that
// allows only protobuf is 406 for them, as the real server answers for
// custom resources.
//
// A client that needs only metadata (client-go's metadata client and
// metadata informers, controller-runtime's OnlyMetadata watches) asks for
// "as=PartialObjectMetadata;g=meta.k8s.io;v=v1" (or
// as=PartialObjectMetadataList for a list), in protobuf or JSON, and gets
// every object of its request (a get, a write's result, each watch
// event's object) as a PartialObjectMetadata, and a list as a
// PartialObjectMetadataList, in either form for every kind, custom ones
// included, as from kube-apiserver.
//
// fieldValidation=Strict does not apply to protobuf bodies: as in
// kube-apiserver, whose protobuf decoder has no strict mode, unknown
// fields in a protobuf body are dropped without an error or a warning.
//
// A strategic merge patch ("application/strategic-merge-patch+json", what
// client-side kubectl apply and kubectl patch send for built-in kinds)
// is taken by kinds that declare it (KindInfo.StrategicMergePatch:
// builtin's Lease, Event and Namespace) and is 415 for the others, as
// the real server answers it for custom resources; kubectl falls back to
// a merge patch for those by itself.
//
// A kind served in a second version ([meta.ServedVersion], such as
// events.k8s.io/v1 Events beside core/v1's) is served at its own paths,
// listed in discovery, in its own form: each object converted from the
// stored kind on the way out, each body converted to it on the way in
// and held to the version's own rules first; field selectors take the
// version's names; tables are the stored kind's, as kube-apiserver prints
// both versions alike. Server-side apply is not served in such a version
// (415), and its writes record managedFields in the stored kind's names.
//
// Simplified: no authentication, no aggregated discovery (kubectl falls back to the
// older per-group documents), and a deletecollection answers its list in
// JSON whatever Accept says.
//
// # Watches over HTTP
//
// GET with ?watch=true answers 200 at once and then streams one JSON
// object per line, {"type":"ADDED","object":{...}}, exactly the events
// [apiserver.ResourceClient.Watch] delivers. Events that are already
// waiting go out in one write; the stream is flushed whenever none is
// left, so no event waits for the next. Watches from no resourceVersion
// that start together, as the informers of many controllers do, share
// one snapshot of their initial ADDED events, encoded once, as the real
// server's watch cache serves them from one state. Every later change is
// encoded once for all the watches that receive it in the same form (JSON
// or protobuf), as the real server caches each object's serialisation.
// The response ends when the watch does: after an ERROR event (a 410
// Expired Status for a resourceVersion older than the server's history),
// after timeoutSeconds, or on a clean close by the server (the client
// watches again from the last resourceVersion it saw). When the client
// hangs up, the request's context ends the server's watch; nothing
// outlives the request.
//
// # The door
//
// The handler answers only requests whose Host header names the loopback
// interface (exactly localhost, 127.0.0.0/8 or ::1), as `kubectl proxy`
// does by default: a web page rebound to 127.0.0.1 gets 403.
// [WithAcceptHosts] widens that, and [WithBearerToken] asks every request
// for a token (401 without it; the scheme in any case), as a server that
// other machines can reach needs. A write that a browser marks as coming
// from another site is 403, and a write whose body names no Content-Type
// is 415 (see door.go for why kube-apiserver differs). A request built
// with httptest.NewRequest carries Host example.com: set its Host to
// "localhost" to hand it to ServeHTTP.
//
// # Errors
//
// Every failure is a Kubernetes Status with its HTTP code, the body of the
// [*meta.StatusError] the server returned, unchanged: 404 NotFound,
// 409 AlreadyExists and Conflict, 410 Expired, 422 Invalid, 429 and 504
// with a Retry-After header. The HTTP front adds its own: 400 for
// malformed JSON (with the line and column), a value of the wrong type
// (naming the field), unknown fields under fieldValidation=Strict (naming
// each) or a bad query parameter; 404 for a path it does not serve; 405
// for a method a path does not take (with an Allow header); 406 for an
// Accept it cannot meet; 413 for a body over [WithMaxRequestBytes], which
// is never read to its end; 415 for a patch type it cannot apply, naming
// the ones it can. Any other error is a 500 InternalError.
package httpapi
