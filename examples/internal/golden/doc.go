// Package golden pins the examples' whole narration in golden files: it
// runs a program's body twice in a testing/synctest bubble under a
// [kitchentest.Conductor] — virtual time, one hand-off at a time — checks
// that both runs told the same story, and compares it with a file under
// the program's testdata/. Run a program's tests with -update to rewrite
// its file after a change meant to alter the story:
//
//	go test ./examples/order-lifecycle -update
package golden
