// Package rest is an HTTP client for the Kubernetes REST protocol in
// JSON: the calls of [apiserver.ResourceClient] — get, list, create,
// update, update status, patch, delete, watch — made over the wire to
// kitchensync's own HTTP front (apiserver/httpapi) or to a real
// kube-apiserver. Like client-go's rest and dynamic packages together,
// but decoding into the Go types of an [meta.Scheme].
//
// In the kitchen, the API server is the front desk and its HTTP front is
// the phone line. Until now every cook stood at the desk; this package is
// the phone: a chef in another building calls the desk, asks for the
// order book, and stays on the line to hear every new order. What he
// hears is the same as what a cook at the desk sees, in the same words.
//
// # The same calls, over HTTP
//
// A [Client] is a [client.Interface], as the in-process server is: its
// [ResourceClient] has the calls of [client.ResourceInterface], so code
// written against the in-process server runs unchanged over HTTP. The
// typed [client.Client] works over it, and an informer fed by it lists
// and watches a remote server, watch-list mode (sendInitialEvents with
// the initial-events-end bookmark) included.
//
// Errors come back as the server sent them: a failed request's Status is
// decoded into an [*meta.StatusError], so meta.IsNotFound,
// IsConflict, IsExpired (410) and the others answer as they do in
// process. A response that is not a Status (a proxy's error page) gets a
// reason from its HTTP code.
//
// Paths are built from the scheme's [meta.KindInfo]: the core group
// under /api/v1, any other under /apis/{group}/{version}; namespaced
// kinds under /namespaces/{ns}/ when a namespace is known.
//
// # Configuration
//
// A [Config] says where the server is and who the client is. It comes
// from a kubeconfig file ([LoadKubeconfig], then [Kubeconfig.Config] for
// a context: server, bearer token or token file, client certificate and
// key, CA, insecure-skip-tls-verify), or from a pod's environment
// ([InClusterConfig]). A file the client cannot use is refused with a
// [*ConfigError] that names the field:
//
//	kubeconfig ./kubeconfig: contexts["dev"].context.cluster: cluster "staging" not found
//
// # Manners on the wire
//
//   - Connections are kept and reused (net/http's pool, up to 25 idle per
//     host); over TLS the client speaks HTTP/2, so all requests and
//     watches share one connection.
//   - Rate limit: a token bucket ([golang.org/x/time/rate]) of [DefaultQPS]
//     requests per second with bursts of [DefaultBurst], client-go's
//     defaults, shared by every request of a [Client]; Config.QPS < 0
//     turns it off.
//   - 429 Too Many Requests (and a 5xx that carries Retry-After) is sent
//     again after the delay the server asks, at most 30s each time, up to
//     [DefaultMaxRetries] times, as client-go does.
//   - Config.Timeout bounds each request except watches, which run until
//     they are stopped or their context ends.
//
// Not supported: protobuf, server-side apply, credential plugins (exec,
// auth-provider), impersonation, proxies, merging several kubeconfig
// files.
package rest
