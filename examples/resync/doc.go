// Command resync runs the resync lesson of the restaurant; see
// [lessons.Resync] for what it shows.
//
//	go run ./examples/resync
package main
