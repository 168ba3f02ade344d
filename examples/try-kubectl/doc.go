// Command try-kubectl serves the restaurant's API over HTTP so that the real
// kubectl can talk to it: the front desk gets a phone line. (It is not
// named kubectl, so that go install ./examples/... puts nothing on your
// PATH that hides the real one.)
//
//	go run ./examples/try-kubectl            # serve until Ctrl-C
//	go run ./examples/try-kubectl -duration 1m -seed=false
//
// It starts an in-memory API server with the kitchen's kinds (Dish, Order,
// Cook in menu.example.com/v1), seeds a small menu and a few orders, puts
// the Kubernetes REST protocol in front of it (package httpapi), writes a
// kubeconfig to a temporary directory and prints kubectl commands to try.
// Every request is narrated on one line:
//
//	[apiserver] GET /apis/menu.example.com/v1/namespaces/default/orders 200
//
// The door is locked by default: it listens on loopback and answers only
// loopback Host names (a web page rebound to 127.0.0.1 gets 403). To serve
// other machines, give a token, which the kubeconfig then carries, and
// optionally a certificate:
//
//	go run ./examples/try-kubectl -addr 0.0.0.0:8443 -token "$(openssl rand -hex 16)" -tls-cert cert.pem -tls-key key.pem
package main
