package main

import "github.com/kitchensync/kitchensync/examples/internal/lessons"

func main() { lessons.Main("stale-chef", lessons.StaleChef) }
