// Command serve opens the restaurant and its live view, "the pass": a web
// page that draws the machinery as a pipeline with every order moving
// through it, with buttons that act on the real server, a gate that
// pauses the real kitchen at its hand-offs and steps it one at a time,
// and guided scenes (package kitchen/liveview).
//
//	go run ./examples/serve                 # then open the printed address
//	go run ./examples/serve -addr 127.0.0.1:8080 -minute 200ms
//	go run ./examples/serve -data ./desk    # orders survive a restart (or a kill -9)
//	go run ./examples/serve -queue deltafifo  # the runner's queue as before client-go 1.33
//	go run ./examples/serve -data ./desk -recover   # a damaged ./desk: keep what precedes the damage
//	go run ./examples/serve -chef=false -kubeconfig /tmp/kitchen.yaml   # the desk only
//	go run ./examples/chef -kubeconfig /tmp/kitchen.yaml                # the chef, apart
//
// With -queue inorder or deltafifo the runner's caches cannot say how far
// they have caught up (their resourceVersion stays "", as in client-go
// with AtomicFIFO off), so the chef does not read his own writes through
// reconcile.Freshness: he asks the API server for an order's cooks before
// he sends one, as controllers did before Kubernetes 1.36.
//
// With -kubeconfig the server writes a kubeconfig for itself, for kubectl
// and for examples/chef (with the token and the certificate, when there
// are). With -chef=false it serves the front desk (the
// API and the page) and cooks nothing: a chef in another process, or
// several competing for the lead, does the cooking.
//
// The same address serves the Kubernetes API (under /api and /apis), so
// kubectl can watch the orders the page places:
//
//	kubectl --server http://127.0.0.1:PORT get orders -n dinner -w
//
// # The door
//
// By default the server answers only requests whose Host names the
// loopback interface, so that a web page elsewhere cannot reach it by
// rebinding its name to 127.0.0.1. To serve other machines:
//
//	go run ./examples/serve -addr :8443 -token-file ./token \
//	    -tls-cert cert.pem -tls-key key.pem -accept-hosts '^kitchen\.lan$' -kubeconfig /tmp/k.yaml
//
// Over TLS the server offers HTTP/2, as kube-apiserver does, so that a
// client-go client sends its requests and watches over one connection.
// An -addr other machines can reach is refused without -token (or
// -token-file). The printed address carries ?token=, which the page trades
// for a cookie; kubectl and examples/chef send the token the kubeconfig
// carries.
package main
