// Command watch-expired runs the watch-expired lesson of the restaurant; see
// [lessons.WatchExpired] for what it shows.
//
//	go run ./examples/watch-expired
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
	if err := lessons.WatchExpired(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "watch-expired:", err)
		os.Exit(1)
	}
}
