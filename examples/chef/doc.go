// Command chef runs the kitchen's chef as a process of its own, against
// a front desk it reaches over HTTP: examples/serve (with -chef=false, or
// beside its own chef), or a real Kubernetes cluster where the Dish and
// Order CRDs are installed (examples/manifests/crds).
//
//	go run ./examples/serve -chef=false -kubeconfig /tmp/kitchen.yaml
//	go run ./examples/chef -kubeconfig /tmp/kitchen.yaml -id chef-1
//	go run ./examples/chef -kubeconfig /tmp/kitchen.yaml -id chef-2   # a second chef waits
//	go run ./examples/chef -kubeconfig ~/.kube/config                 # a real cluster
//
// Several chefs may run; one leads. They compete for a Lease
// (coordination.k8s.io/v1, "kitchensync-chef" in the namespace of the
// kubeconfig's context), with client-go's leader-election rules: only
// the holder cooks; if it dies, another takes the Lease over once it has
// gone unrenewed for -lease-duration, and resumes every order from the
// API's state. The chef's notes on each order are Events:
//
//	kubectl describe order table-7
//	kubectl events
package main
