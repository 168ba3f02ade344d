package workqueue_test

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/workqueue"
	"golang.org/x/time/rate"
)

// The ticket rail collapses duplicate tickets and never hands one order to
// two cooks at once: a ticket clipped again while a cook works on it waits
// until the cook is done.
func ExampleQueue() {
	rail := workqueue.New[string]()
	defer rail.ShutDown()

	rail.Add("table-7")
	rail.Add("table-3")
	rail.Add("table-7") // already on the rail: collapses
	fmt.Println("tickets on the rail:", rail.Len())

	order, _ := rail.Get()
	fmt.Println("cook takes", order)
	rail.Add("table-7") // the customer changed the order meanwhile
	fmt.Println("tickets on the rail:", rail.Len(), "(table-7 waits for its cook)")
	rail.Done(order)
	fmt.Println("tickets on the rail:", rail.Len())

	for rail.Len() > 0 {
		order, _ := rail.Get()
		fmt.Println("cook takes", order)
		rail.Done(order)
	}
	// Output:
	// tickets on the rail: 2
	// cook takes table-7
	// tickets on the rail: 1 (table-7 waits for its cook)
	// tickets on the rail: 2
	// cook takes table-3
	// cook takes table-7
}

// A burnt dish goes back on the rail after a pause that doubles each time
// it burns again; once it comes out right, Forget starts the pause over.
func ExampleItemExponentialFailureRateLimiter_burntDish() {
	backoff := workqueue.NewItemExponentialFailureRateLimiter[string](5*time.Millisecond, time.Second)
	var pauses []time.Duration
	for range 9 {
		pauses = append(pauses, backoff.When("beef-wellington"))
	}
	fmt.Println(pauses)
	fmt.Println("burnt", backoff.NumRequeues("beef-wellington"), "times")

	backoff.Forget("beef-wellington") // it finally came out right
	fmt.Println("next time it burns:", backoff.When("beef-wellington"))
	// Output:
	// [5ms 10ms 20ms 40ms 80ms 160ms 320ms 640ms 1s]
	// burnt 9 times
	// next time it burns: 5ms
}

// In a rush hour the rail admits ten tickets a minute, one every six
// seconds, however many arrive at once. DelayAt shows the token bucket's
// answer for twelve tickets arriving at the same instant.
func ExampleBucketRateLimiter_rushHour() {
	rail := workqueue.NewBucketRateLimiter[string](rate.NewLimiter(rate.Every(6*time.Second), 1))
	rush := time.Date(2026, 1, 1, 19, 0, 0, 0, time.UTC)
	for ticket := 1; ticket <= 12; ticket++ {
		fmt.Printf("ticket %2d waits %v\n", ticket, rail.DelayAt(rush))
	}
	// Output:
	// ticket  1 waits 0s
	// ticket  2 waits 6s
	// ticket  3 waits 12s
	// ticket  4 waits 18s
	// ticket  5 waits 24s
	// ticket  6 waits 30s
	// ticket  7 waits 36s
	// ticket  8 waits 42s
	// ticket  9 waits 48s
	// ticket 10 waits 54s
	// ticket 11 waits 1m0s
	// ticket 12 waits 1m6s
}

// A VIP's ticket jumps the line: higher priority goes first, and tickets of
// the same priority keep their order.
func ExamplePriorityQueue_vip() {
	rail := workqueue.NewPriorityQueue[string](nil, workqueue.QueueConfig{})
	defer rail.ShutDown()

	rail.Add("soup")
	rail.Add("salad")
	rail.Add("steak")
	vip := 10
	rail.AddWithOpts(workqueue.AddOpts{Priority: &vip}, "lobster", "champagne")
	rail.Add("soup") // already waiting: keeps its place

	for rail.Len() > 0 {
		ticket, priority, _ := rail.GetWithPriority()
		fmt.Printf("%-9s (priority %d)\n", ticket, priority)
		rail.Done(ticket)
	}
	// Output:
	// lobster   (priority 10)
	// champagne (priority 10)
	// soup      (priority 0)
	// salad     (priority 0)
	// steak     (priority 0)
}

// A ticket added after a delay joins the rail when its time comes; the
// earliest ready time wins.
func ExampleDelayingQueue_AddAfter() {
	rail := workqueue.NewDelaying[string]()
	defer rail.ShutDown()

	rail.AddAfter("dessert", 20*time.Millisecond)
	rail.AddAfter("main", 10*time.Millisecond)
	rail.AddAfter("dessert", 30*time.Millisecond) // later: ignored, dessert still comes at 20ms
	rail.Add("starter")

	for range 3 {
		course, _ := rail.Get()
		fmt.Println(course)
		rail.Done(course)
	}
	// Output:
	// starter
	// main
	// dessert
}
