package explore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// journal is what a controller saw and got, one list of lines each time
// it is started (once a run, unless a plan crashes it).
type journal struct {
	mu   sync.Mutex
	runs [][]string
}

func (j *journal) start() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.runs = append(j.runs, nil)
}

func (j *journal) add(format string, args ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.runs[len(j.runs)-1] = append(j.runs[len(j.runs)-1], fmt.Sprintf(format, args...))
}

// watcher is a controller with no informer: it lists and watches widgets
// through conn.API itself and writes down every event, every end of its
// watch and what each of its writes got. It paints each widget it finds
// unpainted (a status write). A clean end of the watch makes it watch
// again from the last resourceVersion it saw; an ERROR, list again.
func watcher(j *journal) explore.Controller {
	return explore.Controller{Name: "ctrl", Start: func(ctx context.Context, conn explore.Conn) error {
		j.start()
		widgets := conn.API.ResourceFor(apiservertest.WidgetKind().GroupVersionResource(), "")
		rv, relist := "", true
		for ctx.Err() == nil {
			if relist {
				list, err := widgets.List(ctx, meta.ListOptions{})
				if err != nil {
					return nil // crashed or stopped: the explorer says why, if it matters
				}
				j.add("list %d", len(list.Items))
				for _, o := range list.Items {
					paintOnce(ctx, j, widgets, o)
				}
				rv, relist = list.ResourceVersion, false
			}
			w, err := widgets.Watch(ctx, meta.ListOptions{ResourceVersion: rv})
			if err != nil {
				return nil
			}
			for ev := range w.ResultChan() {
				if ev.Type == meta.EventError {
					err := meta.FromObject(ev.Object)
					j.add("ERROR expired=%t", meta.IsExpired(err))
					relist = true
					continue
				}
				j.add("%s %s", ev.Type, ev.Object.GetName())
				rv = ev.Object.GetObjectMeta().ResourceVersion
				if ev.Type == meta.EventAdded {
					paintOnce(ctx, j, widgets, ev.Object)
				}
			}
			w.Stop()
			if ctx.Err() == nil {
				j.add("watch ended")
			}
		}
		return nil
	}}
}

// paintOnce writes the status of an unpainted widget, and writes down what
// the write got. An event's object is shared and read-only: it paints a
// copy.
func paintOnce(ctx context.Context, j *journal, widgets client.ResourceInterface, o meta.Object) {
	w := o.DeepCopyObject().(*apiservertest.Widget)
	if w.Status.Phase != "" {
		return
	}
	w.Status.Phase = "painted"
	_, err := widgets.UpdateStatus(ctx, w, meta.UpdateOptions{})
	switch {
	case err == nil:
		j.add("paint %s: ok", w.Name)
	case meta.IsConflict(err):
		j.add("paint %s: 409 Conflict", w.Name)
	case ctx.Err() != nil: // in process errCrashed, over HTTP the request's context
		j.add("paint %s: failed, the controller crashed", w.Name)
	default:
		j.add("paint %s: %v", w.Name, err)
	}
}

// newWidgets is a workload step: users create widgets at once.
func newWidgets(names ...string) explore.Step {
	return explore.Step{Name: "create " + strings.Join(names, ", "), Do: func(ctx context.Context, api client.Interface) error {
		for _, name := range names {
			w := apiservertest.NewWidget("default", name)
			if _, err := client.New[*apiservertest.Widget](api).Create(ctx, w, meta.CreateOptions{}); err != nil {
				return err
			}
		}
		return nil
	}}
}

// TestConflictCutAndExpireReachTheController replays a 409, a cut watch,
// an expired watch and a crash, each at a named point, in process and
// over HTTP, and checks what the controller's own client saw: the 409 at
// that write and no other (and the write not made: the end state lacks
// it); the watch ended just before that event, cleanly (the controller
// watches again from where it was) or with 410 Expired (it lists again);
// the crashing write made, but answered as the crash.
func TestConflictCutAndExpireReachTheController(t *testing.T) {
	workload := []explore.Step{newWidgets("w1"), newWidgets("w2", "w3")}
	// The reference run: w1's paint is write 1.w1; in step 2, ADDED w2 is
	// event 2.e1, and w3's paint (after ADDED w3, 2.e2) write 2.w2.
	reference := []string{
		"list 0",
		"ADDED w1", "paint w1: ok", "MODIFIED w1",
		"ADDED w2", "paint w2: ok", "ADDED w3", "paint w3: ok", "MODIFIED w2", "MODIFIED w3",
	}
	for _, tc := range []struct {
		plan string
		want [][]string // the controller's journal in the plan's run, by incarnation
		diff []string   // in the end state's diff; none for no violation
	}{
		// The second write of step 2 (w3's paint) is answered 409, and
		// never made: w3 ends unpainted.
		{"conflict:ctrl@2.w2", [][]string{{
			"list 0",
			"ADDED w1", "paint w1: ok", "MODIFIED w1",
			"ADDED w2", "paint w2: ok", "ADDED w3", "paint w3: 409 Conflict", "MODIFIED w2",
		}}, []string{`"Widget default/w3"`, `-`, `Phase: "painted"`}},
		// The watch ends before the second event of step 2 (ADDED w3);
		// watched again from w2's resourceVersion, it misses nothing.
		{"cut:ctrl/widgets@2.e2", [][]string{{
			"list 0",
			"ADDED w1", "paint w1: ok", "MODIFIED w1",
			"ADDED w2", "paint w2: ok", "watch ended", "ADDED w3", "paint w3: ok", "MODIFIED w2", "MODIFIED w3",
		}}, nil},
		// The watch gets 410 before the same event; listed again, w3
		// is found unpainted and painted.
		{"expire:ctrl/widgets@2.e2", [][]string{{
			"list 0",
			"ADDED w1", "paint w1: ok", "MODIFIED w1",
			"ADDED w2", "paint w2: ok", "ERROR expired=true", "watch ended", "list 3", "paint w3: ok", "MODIFIED w3",
		}}, nil},
		// A crash right after w2's paint (2.w1): the write is made, but
		// the controller hears only that it is gone. Restarted, it lists
		// w2 painted and paints w3.
		{"crash:ctrl@2.w1", [][]string{{
			"list 0",
			"ADDED w1", "paint w1: ok", "MODIFIED w1",
			"ADDED w2", "paint w2: failed, the controller crashed",
		}, {
			"list 3", "paint w3: ok", "MODIFIED w3",
		}}, nil},
	} {
		for _, http := range []bool{false, true} {
			name := tc.plan
			if http {
				name += " over HTTP"
			}
			t.Run(name, func(t *testing.T) {
				var j journal
				s := explore.Scenario{
					Kinds:       []meta.KindInfo{apiservertest.WidgetKind()},
					Controllers: []explore.Controller{watcher(&j)},
					Workload:    workload,
				}
				rep := explore.Explore(t, s, explore.Options{Plan: tc.plan, HTTP: http})
				if len(j.runs) != 1+len(tc.want) {
					t.Fatalf("the controller started %d times, want %d (the reference run, the plan's)", len(j.runs), 1+len(tc.want))
				}
				if diff := cmp.Diff(reference, j.runs[0]); diff != "" {
					t.Errorf("the controller's journal in the reference run (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tc.want, j.runs[1:]); diff != "" {
					t.Errorf("the controller's journal (-want +got):\n%s\nthe reference run:\n%s", diff, rep.Reference)
				}
				switch {
				case tc.diff == nil && len(rep.Violations) > 0:
					t.Errorf("violations: %v", rep.Violations)
				case tc.diff != nil && len(rep.Violations) != 1:
					t.Errorf("want the end state to differ (%q), got %v", tc.diff, rep.Violations)
				case tc.diff != nil:
					for _, part := range tc.diff {
						if !strings.Contains(rep.Violations[0].Diff, part) {
							t.Errorf("the end state's diff has no %q:\n%s", part, rep.Violations[0].Diff)
						}
					}
				}
			})
		}
	}
}
