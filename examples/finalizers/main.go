// Command finalizers runs the finalizers lesson of the restaurant; see
// [lessons.Finalizers] for what it shows.
//
//	go run ./examples/finalizers
package main

import "github.com/kitchensync/kitchensync/examples/internal/lessons"

func main() { lessons.Main("finalizers", lessons.Finalizers) }
