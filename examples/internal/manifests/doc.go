// Package manifests generates the YAML under examples/manifests: the
// CustomResourceDefinitions of the kitchen's kinds (crds/), with the
// schemas meta.SchemaOf derives from their Go types, and the default menu as Dish objects. The
// files are committed; `go run ./examples/manifests/gen` writes them
// again and a test checks that they match.
package manifests
