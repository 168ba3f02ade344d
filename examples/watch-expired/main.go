// Command watch-expired runs the watch-expired lesson of the restaurant; see
// [lessons.WatchExpired] for what it shows.
//
//	go run ./examples/watch-expired
package main

import "github.com/kitchensync/kitchensync/examples/internal/lessons"

func main() { lessons.Main("watch-expired", lessons.WatchExpired) }
