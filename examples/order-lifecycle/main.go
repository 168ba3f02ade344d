// Command order-lifecycle follows one order from creation to cooking, an
// amendment mid-cooking (black truffle) and a cancellation cleaned up by a
// finalizer.
//
//	go run ./examples/order-lifecycle
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
	if err := lessons.OrderLifecycle(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "order-lifecycle:", err)
		os.Exit(1)
	}
}
