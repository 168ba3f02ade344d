// Package stock holds the pantry the long-running example programs open
// with: the default one, many times over, so that a kitchen left running
// does not run out.
package stock
