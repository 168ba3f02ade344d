package reconcile_test

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/trace"
)

// only returns the records of component c, as String prints them.
func only(c trace.Component, recs []trace.Record) []string {
	var out []string
	for _, r := range recs {
		if r.Component == c {
			out = append(out, r.String())
		}
	}
	return out
}

func TestTraceRecordsEachReconcileAndItsResult(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		rec := trace.NewRecorder(tr)
		r := newRecorder(
			returns(reconcile.Result{RequeueAfter: time.Second}, nil),
			func() (reconcile.Result, error) { panic("pot boiled over") },
			fail(errors.New("stove is cold")),
			fail(reconcile.TerminalError(errors.New("no such dish"))),
		)
		c := newController(t, r, reconcile.Options{Tracer: tr})
		c.Queue().Add(soup)
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"controller[test] reconcile-started kitchen/soup worker=1",
			"controller[test] reconcile-finished kitchen/soup worker=1 result=requeue_after detail=after 1s",
			"controller[test] reconcile-started kitchen/soup worker=1",
			`controller[test] reconcile-finished kitchen/soup worker=1 result=error detail=panic err="panic: pot boiled over [recovered]"`,
			"controller[test] reconcile-started kitchen/soup worker=1",
			`controller[test] reconcile-finished kitchen/soup worker=1 result=error err="stove is cold"`,
			"controller[test] reconcile-started kitchen/soup worker=1",
			`controller[test] reconcile-finished kitchen/soup worker=1 result=error detail=terminal err="terminal error: no such dish"`,
		}
		if diff := cmp.Diff(want, only(trace.Controller, rec.Records())); diff != "" {
			t.Errorf("trace (-want +got):\n%s", diff)
		}
	})
}

func TestTraceNamesThePredicateThatDropsAnEvent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		rec := trace.NewRecorder(tr)
		w := newWorld(t, true)
		r := &requests{}
		c := newController(t, r, reconcile.Options{Tracer: tr})
		c.WithEventFilter(reconcile.LabelChangedPredicate[meta.Object]{})
		if err := reconcile.For(c, w.inf, reconcile.GenerationChangedPredicate[widgetT]{}); err != nil {
			t.Fatal(err)
		}
		stop := start(t, c)
		soup := reconcile.NamespacedNameOf(w.create(t, apiservertest.NewWidget("kitchen", "soup")))
		r.check(t, "create", "kitchen/soup")
		w.change(t, soup, true, func(o widgetT) { o.Status.Phase = "Simmering" })
		r.check(t, "status update")
		w.change(t, soup, false, func(o widgetT) { o.Spec.Size = 4 })
		r.check(t, "spec update")
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"controller[test] reconcile-started kitchen/soup worker=1",
			"controller[test] reconcile-finished kitchen/soup worker=1 result=success",
			"controller[test] dropped Widget kitchen/soup rv=3 delta=Update detail=reconcile.GenerationChangedPredicate",
			"controller[test] dropped Widget kitchen/soup rv=4 delta=Update detail=reconcile.LabelChangedPredicate",
		}
		if diff := cmp.Diff(want, only(trace.Controller, rec.Records())); diff != "" {
			t.Errorf("trace (-want +got):\n%s", diff)
		}
	})
}

// A reconcile that Freshness holds back is recorded as skipped, not as
// started: the reconciler never ran.
func TestTraceRecordsAStaleSkip(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		rec := trace.NewRecorder(tr)
		fresh := reconcile.NewFreshness()
		cache := &watermark{rv: "1"}
		fresh.Track(pods, cache)
		if err := fresh.WroteAt(soup.NamespacedName, pods, "2"); err != nil {
			t.Fatal(err)
		}
		r := newRecorder(returns(reconcile.Result{}, nil))
		c := newController(t, r, reconcile.Options{Tracer: tr, Freshness: fresh})
		c.Queue().Add(soup)
		time.AfterFunc(7*time.Millisecond, func() { cache.set("2") }) // caught up after the retry at 5ms
		if err := runFor(t, c, time.Hour); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"controller[test] stale-skipped kitchen/soup worker=1",
			"controller[test] stale-skipped kitchen/soup worker=1",
			"controller[test] reconcile-started kitchen/soup worker=1",
			"controller[test] reconcile-finished kitchen/soup worker=1 result=success",
		}
		if diff := cmp.Diff(want, only(trace.Controller, rec.Records())); diff != "" {
			t.Errorf("trace (-want +got):\n%s", diff)
		}
	})
}

// Owns records which owner a child's event woke; a widget with no owner
// wakes nobody and is not recorded.
func TestTraceRecordsTheOwnerAChildWakes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		rec := trace.NewRecorder(tr)
		w := newWorld(t, true)
		r := &requests{}
		c := newController(t, r, reconcile.Options{Tracer: tr})
		if err := reconcile.Owns(c, w.inf, apiservertest.WidgetKind()); err != nil {
			t.Fatal(err)
		}
		stop := start(t, c)
		soup := w.create(t, apiservertest.NewWidget("kitchen", "soup"))
		pot := apiservertest.NewWidget("kitchen", "pot")
		pot.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef(soup)}
		w.create(t, pot)
		r.check(t, "child created", "kitchen/soup")
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		var mapped []string
		for _, rec := range rec.Records() {
			if rec.Action == trace.Mapped {
				mapped = append(mapped, rec.String())
			}
		}
		want := []string{"controller[test] mapped Widget kitchen/pot rv=3 delta=Create detail=kitchen/soup"}
		if diff := cmp.Diff(want, mapped); diff != "" {
			t.Errorf("mapped records (-want +got):\n%s", diff)
		}
	})
}
