// Package adapt maps generated objects and kitchensync's API objects onto
// the types client-go works with, so that both libraries can be fed the
// same data.
package adapt
