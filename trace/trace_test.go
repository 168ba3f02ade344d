package trace_test

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/trace"
)

func TestNilTracer(t *testing.T) {
	var tr *trace.Tracer
	if tr.Enabled() {
		t.Error("nil Tracer is enabled")
	}
	tr.Emit(trace.Record{Action: trace.Added}) // does nothing, no panic
	unsubscribe := tr.Subscribe(func(trace.Record) { t.Error("called") })
	unsubscribe()
	rec := trace.NewRecorder(tr)
	rec.Stop()
	f := tr.Feed(1)
	f.Close()
	if _, ok := <-f.C; ok {
		t.Error("Feed of a nil Tracer delivered a record")
	}
}

func TestEnabledFollowsSubscribers(t *testing.T) {
	tr := trace.New()
	if tr.Enabled() {
		t.Error("enabled without subscribers")
	}
	r1, r2 := trace.NewRecorder(tr), trace.NewRecorder(tr)
	if !tr.Enabled() {
		t.Error("not enabled with two subscribers")
	}
	r1.Stop()
	r1.Stop() // twice is fine
	if !tr.Enabled() {
		t.Error("not enabled with one subscriber")
	}
	r2.Stop()
	if tr.Enabled() {
		t.Error("enabled after every subscriber left")
	}
}

func TestEmitNumbersAndStamps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := trace.New()
		tr.Emit(trace.Record{Action: trace.Created, Key: "unheard"})
		rec := trace.NewRecorder(tr)
		start := time.Now()
		tr.Emit(trace.Record{Component: trace.APIServer, Action: trace.Created, Key: "a"})
		time.Sleep(time.Second)
		tr.Emit(trace.Record{Component: trace.APIServer, Action: trace.Deleted, Key: "a", Seq: 99})
		rec.Stop()
		tr.Emit(trace.Record{Action: trace.Created, Key: "after stop"})

		want := []trace.Record{
			{Seq: 1, Time: start, Component: trace.APIServer, Action: trace.Created, Key: "a"},
			{Seq: 2, Time: start.Add(time.Second), Component: trace.APIServer, Action: trace.Deleted, Key: "a"},
		}
		if diff := cmp.Diff(want, rec.Records()); diff != "" {
			t.Errorf("records (-want +got):\n%s", diff)
		}
	})
}

// TestConcurrentEmitsArriveInSeqOrder emits from many goroutines and checks
// that each subscriber sees every record once, in Seq order, one at a time.
func TestConcurrentEmitsArriveInSeqOrder(t *testing.T) {
	tr := trace.New()
	var inside, last uint64
	unsubscribe := tr.Subscribe(func(r trace.Record) {
		if inside++; inside != 1 {
			t.Error("subscriber called concurrently")
		}
		if r.Seq != last+1 {
			t.Errorf("got Seq %d after %d", r.Seq, last)
		}
		last = r.Seq
		inside--
	})
	rec := trace.NewRecorder(tr)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				tr.Emit(trace.Record{Action: trace.Added})
			}
		})
	}
	wg.Wait()
	unsubscribe()
	if got := len(rec.Records()); got != 800 || last != 800 {
		t.Errorf("recorded %d, last Seq %d; want 800 each", got, last)
	}
}

func TestFeedDropsInsteadOfBlocking(t *testing.T) {
	tr := trace.New()
	f := tr.Feed(2)
	for i := range 5 {
		tr.Emit(trace.Record{Action: trace.Added, Key: string(rune('a' + i))})
	}
	f.Close()
	f.Close() // twice is fine
	var got []string
	for r := range f.C {
		got = append(got, r.Key)
	}
	if diff := cmp.Diff([]string{"a", "b"}, got); diff != "" {
		t.Errorf("delivered (-want +got):\n%s", diff)
	}
	if f.Dropped() != 3 {
		t.Errorf("Dropped() = %d, want 3", f.Dropped())
	}
	if tr.Enabled() {
		t.Error("enabled after the feed closed")
	}
}

func TestRecorderReset(t *testing.T) {
	tr := trace.New()
	rec := trace.NewRecorder(tr)
	tr.Emit(trace.Record{Key: "a"})
	rec.Reset()
	tr.Emit(trace.Record{Key: "b"})
	want := []trace.Record{{Key: "b"}}
	if diff := cmp.Diff(want, rec.Records(), cmpopts.IgnoreFields(trace.Record{}, "Seq", "Time")); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestRecordString(t *testing.T) {
	tests := []struct {
		name string
		rec  trace.Record
		want string
	}{{
		name: "a write",
		rec:  trace.Record{Component: trace.APIServer, Action: trace.Created, Kind: "Order", Key: "default/a", ResourceVersion: "2"},
		want: "apiserver created Order default/a rv=2",
	}, {
		name: "a delay prints its wait",
		rec:  trace.Record{Component: trace.Workqueue, Name: "orders", Action: trace.Delayed, Key: "default/a", Duration: time.Second},
		want: "workqueue[orders] delayed default/a after=1s",
	}, {
		name: "a measured duration is left out",
		rec: trace.Record{Component: trace.Controller, Name: "orders", Action: trace.ReconcileFinished, Key: "default/a",
			Worker: 2, Result: trace.ResultError, Duration: time.Millisecond, Detail: "terminal", Err: errors.New("no such dish")},
		want: `controller[orders] reconcile-finished default/a worker=2 result=error detail=terminal err="no such dish"`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rec.String(); got != tt.want {
				t.Errorf("String() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestRecordJSONCarriesTheErrorMessage(t *testing.T) {
	r := trace.Record{Seq: 3, Time: time.Unix(0, 0).UTC(), Component: trace.Reflector, Name: "orders",
		Action: trace.Expired, ResourceVersion: "7", Err: errors.New("too old resource version")}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seq":3,"time":"1970-01-01T00:00:00Z","component":"reflector","name":"orders","action":"expired",` +
		`"resourceVersion":"7","error":"too old resource version"}`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}
