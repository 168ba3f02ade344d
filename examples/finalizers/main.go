package main

import "github.com/kitchensync/kitchensync/examples/internal/lessons"

func main() { lessons.Main("finalizers", lessons.Finalizers) }
