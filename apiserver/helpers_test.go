package apiserver_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// fixture is a server with a typed Widget client in namespace "ns".
type fixture struct {
	srv     *apiserver.Server
	widgets *client.Client[*apiservertest.Widget]
	res     *apiserver.ResourceClient // widgets in all namespaces
	ctx     context.Context
}

func newFixture(t *testing.T, opts apiserver.Options) *fixture {
	t.Helper()
	srv := apiservertest.NewServerWithOptions(t, opts)
	return &fixture{
		srv:     srv,
		widgets: client.New[*apiservertest.Widget](srv).Namespace("ns"),
		res:     srv.Resource(apiservertest.WidgetsResource),
		ctx:     context.Background(),
	}
}

// create stores a widget in namespace "ns" with the given labels and color.
// A nil t panics on failure (for setup inside table cases).
func (f *fixture) create(t *testing.T, name, color string, labels map[string]string) *apiservertest.Widget {
	w := apiservertest.NewWidget("ns", name)
	w.Spec.Color = color
	w.Labels = labels
	got, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
	if err != nil && t == nil {
		panic(err)
	}
	if err != nil {
		t.Helper()
		t.Fatalf("Create(%s): %v", name, err)
	}
	return got
}

func (f *fixture) update(t *testing.T, w *apiservertest.Widget) *apiservertest.Widget {
	t.Helper()
	got, err := f.widgets.Update(f.ctx, w, meta.UpdateOptions{})
	if err != nil {
		t.Fatalf("Update(%s): %v", w.Name, err)
	}
	return got
}

func (f *fixture) watch(t *testing.T, opts meta.ListOptions) meta.WatchInterface {
	t.Helper()
	w, err := f.res.Watch(f.ctx, opts)
	if err != nil {
		t.Fatalf("Watch(%+v): %v", opts, err)
	}
	t.Cleanup(w.Stop)
	return w
}

// describe prints an event on one line: type, key, resourceVersion, and
// for bookmarks the initial-events-end annotation; for errors the status.
func describe(ev meta.Event) string {
	if st, ok := ev.Object.(*meta.Status); ok {
		return fmt.Sprintf("%s %d %s", ev.Type, st.Code, st.Message)
	}
	m := ev.Object.GetObjectMeta()
	if ev.Type == meta.EventBookmark {
		s := fmt.Sprintf("BOOKMARK rv=%s", m.ResourceVersion)
		if m.Annotations[meta.InitialEventsEndAnnotation] == "true" {
			s += " initial-events-end"
		}
		return s
	}
	return fmt.Sprintf("%s %s/%s rv=%s", ev.Type, m.Namespace, m.Name, m.ResourceVersion)
}

// drain returns the events the watch delivers until it goes quiet (every
// goroutine of the bubble blocked), and "CLOSED" if the channel closed.
// It must run inside a synctest bubble.
func drain(w meta.WatchInterface) []string {
	var out []string
	for {
		synctest.Wait()
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return append(out, "CLOSED")
			}
			out = append(out, describe(ev))
		default:
			return out
		}
	}
}

func diffEvents(t *testing.T, w meta.WatchInterface, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, drain(w)); diff != "" {
		t.Errorf("watch events mismatch (-want +got):\n%s", diff)
	}
}

func ptr[T any](v T) *T { return &v }

// bubbleGoroutines returns the stacks of the goroutines in the calling
// goroutine's synctest bubble, its own included. Goroutines outside the
// bubble (the test runner's, other tests' finishing ones) do not count, so
// comparing two calls shows exactly what the code under test started.
func bubbleGoroutines(t *testing.T) []string {
	t.Helper()
	self := stackDump(false)
	tag := bubbleTag(self)
	if tag == "" {
		t.Fatalf("bubbleGoroutines called outside a synctest bubble: %s", self)
	}
	var in []string
	for _, g := range strings.Split(stackDump(true), "\n\n") {
		if header, _, _ := strings.Cut(g, "\n"); bubbleTag(header) == tag {
			in = append(in, g)
		}
	}
	return in
}

// bubbleTag is the "synctest bubble N" part of a goroutine's stack
// header ("goroutine 7 [chan receive, synctest bubble 3]:"), or "".
func bubbleTag(stack string) string {
	header, _, _ := strings.Cut(stack, "\n")
	_, tag, ok := strings.Cut(header, ", synctest bubble ")
	if !ok {
		return ""
	}
	id, _, _ := strings.Cut(tag, "]")
	id, _, _ = strings.Cut(id, ",") // labels may follow the bubble id
	return "synctest bubble " + id
}

// stackDump is runtime.Stack with a buffer large enough for the dump.
func stackDump(all bool) string {
	for buf := make([]byte, 1<<16); ; buf = make([]byte, 2*len(buf)) {
		if n := runtime.Stack(buf, all); n < len(buf) {
			return string(buf[:n])
		}
	}
}
