package trace_test

import (
	"fmt"

	"github.com/kitchensync/kitchensync/trace"
)

// A component emits records only when somebody listens; a Recorder
// listens and keeps them.
func Example() {
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	defer rec.Stop()

	// What a work queue does inside Add, for example:
	if tr.Enabled() {
		tr.Emit(trace.Record{Component: trace.Workqueue, Name: "orders", Action: trace.Added, Key: "default/table-7", Depth: 1})
	}

	for _, r := range rec.Records() {
		fmt.Println(r.Seq, r)
	}
	// Output:
	// 1 workqueue[orders] added default/table-7 depth=1
}

// A Feed hands records to a slow reader over a channel, dropping what does
// not fit rather than making the machinery wait.
func ExampleTracer_Feed() {
	tr := trace.New()
	feed := tr.Feed(1)
	for _, key := range []string{"default/a", "default/b"} {
		tr.Emit(trace.Record{Component: trace.Workqueue, Name: "orders", Action: trace.Added, Key: key})
	}
	feed.Close()
	for r := range feed.C {
		fmt.Println(r)
	}
	fmt.Println("dropped:", feed.Dropped())
	// Output:
	// workqueue[orders] added default/a
	// dropped: 1
}
