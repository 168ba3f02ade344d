package apiserver_test

import (
	"context"
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A write carries the resourceVersion it read; a write from a stale read
// loses with 409 Conflict, and the cure is to read again and retry.
func ExampleServer() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("default")

	w := apiservertest.NewWidget("default", "w1")
	w.Spec.Color = "red"
	created, _ := widgets.Create(ctx, w, meta.CreateOptions{})
	fmt.Println("created: rv", created.ResourceVersion, "generation", created.Generation)

	mine, theirs := created, meta.DeepCopy(created)
	mine.Spec.Color = "blue"
	updated, _ := widgets.Update(ctx, mine, meta.UpdateOptions{})
	fmt.Println("updated: rv", updated.ResourceVersion, "generation", updated.Generation)

	theirs.Spec.Size = 3
	_, err := widgets.Update(ctx, theirs, meta.UpdateOptions{})
	fmt.Println("conflict:", meta.IsConflict(err))
	fmt.Println(err)

	fresh, _ := widgets.Get(ctx, "w1", meta.GetOptions{})
	fresh.Spec.Size = 3
	retried, _ := widgets.Update(ctx, fresh, meta.UpdateOptions{})
	fmt.Println("retried: rv", retried.ResourceVersion, "color", retried.Spec.Color, "size", retried.Spec.Size)
	// Output:
	// created: rv 2 generation 1
	// updated: rv 3 generation 2
	// conflict: true
	// Operation cannot be fulfilled on widgets.test.kitchensync.io "w1": the object has been modified; please apply your changes to the latest version and try again
	// retried: rv 4 color blue size 3
}

// List, then watch from the list's resourceVersion: whatever happened in
// between arrives as events, so the two together miss nothing. This is
// what an informer's reflector does.
func ExampleResourceClient_Watch() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := srv.Resource(apiservertest.WidgetsResource).Namespace("default")

	_, _ = widgets.Create(ctx, apiservertest.NewWidget("default", "a"), meta.CreateOptions{})
	list, _ := widgets.List(ctx, meta.ListOptions{})
	fmt.Println("listed", len(list.Items), "at rv", list.ResourceVersion)

	// Changes between the list and the watch:
	_, _ = widgets.Create(ctx, apiservertest.NewWidget("default", "b"), meta.CreateOptions{})
	_ = widgets.Delete(ctx, "a", meta.DeleteOptions{})

	w, _ := widgets.Watch(ctx, meta.ListOptions{ResourceVersion: list.ResourceVersion})
	defer w.Stop()
	for range 2 {
		ev := <-w.ResultChan()
		fmt.Println(ev.Type, ev.Object.GetObjectMeta().Name, "rv", ev.Object.GetObjectMeta().ResourceVersion)
	}
	// Output:
	// listed 1 at rv 2
	// ADDED b rv 3
	// DELETED a rv 4
}

// After a compaction, a watch from an older resourceVersion gets one ERROR
// event with 410 Expired, and its channel closes: the client must list
// again and watch from the new list's resourceVersion.
func ExampleServer_CompactHistory() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{CompactionDropsHistory: true})
	widgets := srv.Resource(apiservertest.WidgetsResource).Namespace("default")
	for _, name := range []string{"a", "b", "c"} {
		_, _ = widgets.Create(ctx, apiservertest.NewWidget("default", name), meta.CreateOptions{})
	}
	srv.CompactHistory()

	w, _ := widgets.Watch(ctx, meta.ListOptions{ResourceVersion: "2"})
	for ev := range w.ResultChan() {
		err := meta.FromObject(ev.Object)
		fmt.Println(ev.Type, meta.IsExpired(err), err)
	}
	fmt.Println("closed")
	// Output:
	// ERROR true too old resource version: 2 (4)
	// closed
}

// A paged list: every page is read at the first page's resourceVersion,
// so the pages fit together even while the objects change.
func ExampleResourceClient_List() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := srv.Resource(apiservertest.WidgetsResource).Namespace("default")
	for name, size := range map[string]string{"a": "big", "b": "big", "c": "big", "d": "small", "e": "small"} {
		w := apiservertest.NewWidget("default", name)
		w.Labels = map[string]string{"size": size}
		_, _ = widgets.Create(ctx, w, meta.CreateOptions{})
	}
	opts := meta.ListOptions{LabelSelector: "size=big", Limit: 2}
	for {
		page, err := widgets.List(ctx, opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		var names []string
		for _, obj := range page.Items {
			names = append(names, obj.GetObjectMeta().Name)
		}
		fmt.Println(page.Kind, "at rv", page.ResourceVersion, names)
		if page.Continue == "" {
			break
		}
		opts.Continue = page.Continue
		_ = widgets.Delete(ctx, "c", meta.DeleteOptions{}) // not seen by the next page
	}
	// Output:
	// WidgetList at rv 6 [a b]
	// WidgetList at rv 6 [c]
}

// FailNext makes the next requests of a verb fail, e.g. to show a
// controller retrying; RequestCount shows what reached the server.
func ExampleServer_FailNext() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("default")

	srv.FailNext(apiserver.VerbCreate, 2, meta.NewTooManyRequests("the kitchen is full", 1))
	for attempt := 1; ; attempt++ {
		_, err := widgets.Create(ctx, apiservertest.NewWidget("default", "w"), meta.CreateOptions{})
		fmt.Printf("attempt %d: %v\n", attempt, err)
		if err == nil {
			break
		}
	}
	fmt.Println("creates:", srv.RequestCount(apiserver.VerbCreate, apiservertest.WidgetsResource.GroupResource()))
	// Output:
	// attempt 1: the kitchen is full
	// attempt 2: the kitchen is full
	// attempt 3: <nil>
	// creates: 3
}
