// Command watch-expired runs the watch-expired lesson of the restaurant; see
// [lessons.WatchExpired] for what it shows.
//
//	go run ./examples/watch-expired
//
// The test pins the whole narration in testdata/narration.golden
// (go test ./examples/watch-expired -update rewrites it): it plays the lesson
// in virtual time (testing/synctest) under a kitchentest.Conductor, which lets
// the kitchen take one hand-off at a time in a fixed order, so the story
// is the same every run. Run with go run, the kitchen is truly concurrent:
// the same hand-offs happen, but lines from different goroutines can come
// in another order, two events may merge into one ticket or not, and a
// write may meet a stale cache — real behaviour, not noise. There is no
// -deterministic flag: a Conductor needs to know when every goroutine is
// idle, and only testing/synctest can tell.
package main
