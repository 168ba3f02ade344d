// Command order-lifecycle follows one order from creation to cooking, an
// amendment mid-cooking (black truffle) and a cancellation cleaned up by a
// finalizer.
//
//	go run ./examples/order-lifecycle
package main

import "github.com/kitchensync/kitchensync/examples/internal/lessons"

func main() { lessons.Main("order-lifecycle", lessons.OrderLifecycle) }
