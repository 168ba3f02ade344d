// Command gen writes the generated manifests under examples/manifests:
// the CRDs of the kitchen's kinds (crds/) and the menu (dishes.yaml).
// Run it from the repository's root after changing a kind:
//
//	go run ./examples/manifests/gen
package main
