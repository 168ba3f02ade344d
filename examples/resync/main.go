// Command resync runs the resync lesson of the restaurant; see
// [lessons.Resync] for what it shows.
//
//	go run ./examples/resync
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
	if err := lessons.Resync(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "resync:", err)
		os.Exit(1)
	}
}
