// Command finalizers runs the finalizers lesson of the restaurant; see
// [lessons.Finalizers] for what it shows.
//
//	go run ./examples/finalizers
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/kitchensync/kitchensync/examples/internal/lessons"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := lessons.Finalizers(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "finalizers:", err)
		os.Exit(1)
	}
}
