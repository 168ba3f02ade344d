// Command rush-hour runs the rush-hour lesson of the restaurant; see
// [lessons.RushHour] for what it shows.
//
//	go run ./examples/rush-hour
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
	if err := lessons.RushHour(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "rush-hour:", err)
		os.Exit(1)
	}
}
