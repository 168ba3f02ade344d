// The guided tour: each Example is a chapter, in order. The chapters'
// code and prose live in package chapters (examples/tour/chapters), one
// function each, so that go run ./examples/tour can print a chapter's
// prose, code and output in the terminal; the Examples below run the same
// functions and pin what they print. Run them with
//
//	go test -run Example_step -v .
package kitchensync_test

import (
	"os"

	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

// Chapter 1: An order is an object ([chapters.AnOrderIsAnObject]).
// With its prose and code: go run ./examples/tour -step 1.
func Example_step01_anOrderIsAnObject() {
	chapters.AnOrderIsAnObject(os.Stdout)
	// Output:
	// created Order dinner/table-7: resourceVersion 2, generation 1
	// spec changed:    resourceVersion 3, generation 2
	// status changed:  resourceVersion 4, generation 2
	// nothing changed: resourceVersion 4, generation 2
	// Order.menu.example.com "table-0" is invalid: [spec.table: Invalid value: 0: tables are numbered from 1, spec.items[0].quantity: Invalid value: 0: must be at least 1]
}

// Chapter 2: Two waiters, one order: 409 Conflict ([chapters.Conflict]).
// With its prose and code: go run ./examples/tour -step 2.
func Example_step02_conflict() {
	chapters.Conflict(os.Stdout)
	// Output:
	// bob: Operation cannot be fulfilled on orders.menu.example.com "table-3": the object has been modified; please apply your changes to the latest version and try again
	// conflict? true
	// after the retry: 2× tomato-soup with [chili] (err <nil>)
}

// Chapter 3: The front desk streams changes: watch ([chapters.Watch]).
// With its prose and code: go run ./examples/tour -step 3.
func Example_step03_watch() {
	chapters.Watch(os.Stdout)
	// Output:
	// ADDED    table-2 (resourceVersion 3)
	// MODIFIED table-1 (resourceVersion 4)
	// DELETED  table-2 (resourceVersion 5)
}

// Chapter 4: The same watch over HTTP ([chapters.WatchOverHTTP]).
// With its prose and code: go run ./examples/tour -step 4.
func Example_step04_watchOverHTTP() {
	chapters.WatchOverHTTP(os.Stdout)
	// Output:
	// 200 OK application/json
	// {"type":"ADDED","object":{"kind":"Order","metadata":{"name":"table-2","resourceVersion":"3",...}}}
	// {"type":"DELETED","object":{"kind":"Order","metadata":{"name":"table-1","resourceVersion":"4",...}}}
}

// Chapter 5: The runner remembers: informer and cache ([chapters.RunnerRemembers]).
// With its prose and code: go run ./examples/tour -step 5.
func Example_step05_runnerRemembers() {
	chapters.RunnerRemembers(os.Stdout)
	// Output:
	// VIP room: [table-1 table-3]
	// table-3 wants tomato-soup
	// table-9: true
	// lists made: 1
}

// Chapter 6: The ticket rail: dedup and priority ([chapters.TicketRail]).
// With its prose and code: go run ./examples/tour -step 6.
func Example_step06_ticketRail() {
	chapters.TicketRail(os.Stdout)
	// Output:
	// tickets on the rail: 3
	// the chef takes dinner/table-3 (priority 100)
	// the chef takes dinner/table-1 (priority 0)
	// the chef takes dinner/table-2 (priority 0)
}

// Chapter 7: The chef: a reconciler ([chapters.Chef]).
// With its prose and code: go run ./examples/tour -step 7.
func Example_step07_chef() {
	chapters.Chef(os.Stdout)
	// Output:
	// table-4: Served (observedGeneration 1)
	//   Accepted True  OnTheMenu
	//   Stocked  True  InStock
	//   Ready    True  AllCooked
	// table-5: Rejected (observedGeneration 1)
	//   Accepted False DishNotOnMenu
	// pantry: <nil>
}

// Chapter 8: Black truffle mid-cooking ([chapters.Truffle]).
// With its prose and code: go run ./examples/tour -step 8.
func Example_step08_truffle() {
	chapters.Truffle(os.Stdout)
	// Output:
	// generation 2 seen by the chef; cook table-7-0-g1 still Cooking, now with [black-truffle]
	// held for the pasta: black-truffle 10g, spaghetti 200g; wasted 0
}

// Chapter 9: The table leaves: finalizer and garbage collector ([chapters.Cancel]).
// With its prose and code: go run ./examples/tour -step 9.
func Example_step09_cancel() {
	chapters.Cancel(os.Stdout)
	// Output:
	// cook table-2-0-g1 DELETED by the garbage collector
	// chocolate: reserved 200 (table-1's cake), wasted 0, on the shelf 3800 of 4000
	// pantry: <nil>
}

// Chapter 10: A chef that survives a disconnect ([chapters.Disconnect]).
// With its prose and code: go run ./examples/tour -step 10.
func Example_step10_disconnect() {
	chapters.Disconnect(os.Stdout)
	// Output:
	// table-1 cancelled and cleaned up: filet-mignon used or wasted 500, still reserved 0
	// table-2 served; pantry: <nil>
}

// Chapter 11: The stale chef: read your own writes ([chapters.StaleChef]).
// With its prose and code: go run ./examples/tour -step 11.
func Example_step11_staleChef() {
	chapters.StaleChef(os.Stdout)
	// Output:
	// a chef who trusts his memory: 2 cooks sent for one caesar-salad
	// a chef who reads his own writes: 1 cook sent; the second ticket waited for his memory: true
	//   store_resource_version{resource="cooks.menu.example.com"} is the cook's resourceVersion: true
}

// Chapter 12: Your own controller ([chapters.YourOwnController]).
// With its prose and code: go run ./examples/tour -step 12.
func Example_step12_yourOwnController() {
	chapters.YourOwnController(os.Stdout)
	// Output:
	// beef-wellington (rv 2): 40 min at difficulty 5
	// the typo: Dish.menu.example.com "beef-wellington" is invalid: spec.difficulty: Invalid value: 6: must be between 1 and 5
	// beef-wellington (rv 3): 45 min at difficulty 5
	// inspected after two resyncs: 0
}

// Chapter 13: Errors back off ([chapters.Backoff]).
// With its prose and code: go run ./examples/tour -step 13.
func Example_step13_backoff() {
	chapters.Backoff(os.Stdout)
	// Output:
	// failed reconciles, each retried after a backoff: 3
	// table-6 served anyway; pantry: <nil>
}
