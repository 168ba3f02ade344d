// Command vip-priority runs the vip-priority lesson of the restaurant; see
// [lessons.VIPPriority] for what it shows.
//
//	go run ./examples/vip-priority
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
	if err := lessons.VIPPriority(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "vip-priority:", err)
		os.Exit(1)
	}
}
