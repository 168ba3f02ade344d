// Command shared-informer shows two runners with their own memory, then
// two handlers sharing one, its indexes and a field selector, counting
// the API calls each costs.
//
//	go run ./examples/shared-informer
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
	if err := lessons.SharedInformer(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "shared-informer:", err)
		os.Exit(1)
	}
}
