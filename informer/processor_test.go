package informer

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// checkRing is the ring's invariant checker: n within bounds, head inside
// the slice, and the slots outside the live window zeroed (so that popped
// objects can be collected).
func checkRing(t *testing.T, r *ring[*int]) {
	t.Helper()
	if r.n < 0 || r.n > len(r.items) || (len(r.items) > 0 && (r.head < 0 || r.head >= len(r.items))) {
		t.Fatalf("ring out of bounds: head %d, n %d, cap %d", r.head, r.n, len(r.items))
	}
	for i := r.n; i < len(r.items); i++ {
		if p := r.items[(r.head+i)%len(r.items)]; p != nil {
			t.Fatalf("slot %d outside the live window holds %d", (r.head+i)%len(r.items), *p)
		}
	}
}

func TestRingIsFIFOAcrossGrowthAndWrap(t *testing.T) {
	var r ring[*int]
	var want, got []int
	next := 0
	push := func(k int) {
		for range k {
			v := next
			next++
			r.push(&v)
			want = append(want, v)
			checkRing(t, &r)
		}
	}
	pop := func(k int) {
		for range k {
			p, ok := r.pop()
			if !ok {
				t.Fatal("pop from a ring that should hold items")
			}
			got = append(got, *p)
			checkRing(t, &r)
		}
	}
	push(10)
	pop(7)   // head moves to 7
	push(20) // wraps, then grows from 16 to 32 with head not at 0
	pop(5)
	push(40)
	pop(58)
	if _, ok := r.pop(); ok {
		t.Fatal("pop from an empty ring succeeded")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ring order (-pushed +popped):\n%s", diff)
	}
}

func TestListenerDeliversInOrderAndTracksInitialList(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		release := make(chan struct{})
		gate := ResourceEventHandlerFuncs[*widget]{
			AddFunc: func(w *widget, initial bool) {
				<-release
				rec.OnAdd(w, initial)
			},
			UpdateFunc: rec.OnUpdate,
			DeleteFunc: rec.OnDelete,
		}
		reg := newRegistration(nil)
		l := newListener[*widget](gate, reg, 0, 0, time.Now())
		done := make(chan struct{})
		go func() {
			defer close(done)
			l.run()
		}()
		a, b := newWidgetAt("a", "1"), newWidgetAt("b", "2")
		a2 := newWidgetAt("a", "3")
		l.add(notification[*widget]{kind: addNotification, flag: true, newObj: a})
		l.add(notification[*widget]{kind: addNotification, flag: true, newObj: b})
		reg.upstreamSynced()
		l.add(notification[*widget]{kind: updateNotification, oldObj: a, newObj: a2})
		l.add(notification[*widget]{kind: deleteNotification, flag: true, newObj: b})
		synctest.Wait()
		if reg.HasSynced() {
			t.Fatal("synced while the initial adds are still queued")
		}
		close(release)
		<-reg.Synced()
		synctest.Wait()
		diffEvents(t, "one goroutine delivers in the order added", []string{
			"add a@1 initial=true", "add b@2 initial=true", "update a@1->3", "delete b@2 unknown=true",
		}, rec.take())
		l.shutdown()
		l.shutdown() // twice is fine
		<-done
	})
}

func TestListenerShutdownDropsQueued(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var rec recorder
		l := newListener[*widget](&rec, newRegistration(nil), 0, 0, time.Now())
		l.add(notification[*widget]{kind: addNotification, newObj: newWidgetAt("a", "1")})
		l.shutdown()
		l.run() // returns at once: stopped before it started
		if got := rec.take(); got != nil {
			t.Errorf("delivered after shutdown: %v", got)
		}
	})
}

func TestRegistrationSyncedWithEmptyInitialList(t *testing.T) {
	reg := newRegistration(nil)
	if reg.HasSynced() {
		t.Fatal("synced before upstream")
	}
	reg.upstreamSynced()
	reg.upstreamSynced()
	if !reg.HasSynced() {
		t.Fatal("an empty initial list: synced as soon as upstream is")
	}
}

func TestListenerResyncSchedule(t *testing.T) {
	l := newListener[*widget](&recorder{}, newRegistration(nil), time.Minute, time.Minute, t0)
	steps := []struct {
		at   time.Duration
		want bool
	}{
		{30 * time.Second, false},
		{time.Minute, true},
		{90 * time.Second, false}, // next is 2m after the resync at 1m
		{2 * time.Minute, true},
	}
	for _, s := range steps {
		if got := l.dueForResync(t0.Add(s.at)); got != s.want || l.resyncing != s.want {
			t.Errorf("at %v: due %v (resyncing %v), want %v", s.at, got, l.resyncing, s.want)
		}
	}
}

func TestFilteringResourceEventHandler(t *testing.T) {
	var rec recorder
	red := func(w *widget) bool { return w.Spec.Color == "red" }
	f := FilteringResourceEventHandler[*widget]{FilterFunc: red, Handler: &rec}
	colored := func(name, rv, color string) *widget {
		w := apiservertest.NewWidget("ns", name)
		w.ResourceVersion, w.Spec.Color = rv, color
		return w
	}
	f.OnAdd(colored("a", "1", "red"), true)
	f.OnAdd(colored("b", "2", "blue"), true)
	f.OnUpdate(colored("b", "2", "blue"), colored("b", "3", "red"))
	f.OnUpdate(colored("a", "1", "red"), colored("a", "4", "red"))
	f.OnUpdate(colored("a", "4", "red"), colored("a", "5", "blue"))
	f.OnUpdate(colored("a", "5", "blue"), colored("a", "6", "blue"))
	f.OnDelete(colored("b", "3", "red"), true)
	f.OnDelete(colored("c", "7", "blue"), false)
	diffEvents(t, "the filtered subset is a consistent stream", []string{
		"add a@1 initial=true",
		"add b@3 initial=false",    // became red
		"update a@1->4",            // stayed red
		"delete a@4 unknown=false", // stopped being red
		"delete b@3 unknown=true",
	}, rec.take())
	var nilFuncs ResourceEventHandlerFuncs[*widget]
	nilFuncs.OnAdd(nil, false) // nil functions ignore their notifications
	nilFuncs.OnUpdate(nil, nil)
	nilFuncs.OnDelete(nil, false)
}
