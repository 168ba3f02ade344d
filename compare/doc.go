// Package compare holds kitchensync's differential conformance tests and
// side-by-side benchmarks against client-go and controller-runtime.
package compare
