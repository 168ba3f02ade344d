package liveview_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

// open runs a traced restaurant with its live view inside the test's
// bubble, and stops both when the test ends.
func open(t *testing.T) (*restaurant.Restaurant, *liveview.View) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	r, err := restaurant.Open(ctx, restaurant.Config{Tracer: trace.New()})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	v := liveview.Handler(ctx, r)
	if !r.WaitReady(ctx) {
		t.Fatal("the restaurant did not open")
	}
	return r, v
}

// post presses a button and returns the status and the decoded answer.
func post(t *testing.T, v http.Handler, path string) (int, map[string]string) {
	t.Helper()
	w := httptest.NewRecorder()
	v.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path, nil))
	var out map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("POST %s: %v in %q", path, err, w.Body.String())
	}
	return w.Code, out
}

// get answers a GET as JSON into out.
func get(t *testing.T, v http.Handler, path string, out any) int {
	t.Helper()
	w := httptest.NewRecorder()
	v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	if err := json.Unmarshal(w.Body.Bytes(), out); err != nil {
		t.Fatalf("GET %s: %v in %q", path, err, w.Body.String())
	}
	return w.Code
}

type orderDetail struct {
	Order struct {
		Name, Phase string
		Stages      []string
		Gone        bool
	}
	YAML    string
	History []struct{ Stage, Text, Class string }
}

func TestPlaceAnOrderAndFollowItToTheTable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, v := open(t)
		code, out := post(t, v, "/actions/place?dish=caesar-salad&section=terrace")
		if code != http.StatusOK || out["message"] != "placed order-001" {
			t.Fatalf("place: %d %v", code, out)
		}
		served := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }
		if err := r.WaitForOrder(t.Context(), "order-001", served); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		var d orderDetail
		if code := get(t, v, "/orders/order-001", &d); code != http.StatusOK {
			t.Fatalf("GET /orders/order-001: %d", code)
		}
		want := []string{"waiter", "apiserver", "queue", "indexer", "handlers", "rail", "workers", "reconciler", "stations"}
		if diff := cmp.Diff(want, d.Order.Stages); diff != "" {
			t.Errorf("stages the order crossed (-want +got):\n%s", diff)
		}
		if d.Order.Phase != "Served" || !strings.Contains(d.YAML, "phase: Served") || !strings.Contains(d.YAML, "section: terrace") {
			t.Errorf("order %s, YAML:\n%s", d.Order.Phase, d.YAML)
		}
		var phases []string
		for _, h := range d.History {
			if strings.Contains(h.Class, "phase-change") {
				phases = append(phases, h.Text)
			}
		}
		if diff := cmp.Diff([]string{"Pending → Cooking", "Cooking → Ready", "Ready → Served"}, phases); diff != "" {
			t.Errorf("phases in the history (-want +got):\n%s", diff)
		}
	})
}

func TestCancelShowsTheFinalizerAndTheGarbageCollector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, v := open(t)
		post(t, v, "/actions/place?dish=beef-wellington")
		cooking := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderCooking }
		if err := r.WaitForOrder(t.Context(), "order-001", cooking); err != nil {
			t.Fatal(err)
		}
		if code, out := post(t, v, "/actions/cancel"); code != http.StatusOK {
			t.Fatalf("cancel: %d %v", code, out)
		}
		if err := r.WaitForOrder(t.Context(), "order-001", func(o *kitchen.Order) bool { return o == nil }); err != nil {
			t.Fatal(err)
		}
		// The garbage collector deletes the cooks soon after their order.
		for len(r.Runner.Cooks.GetIndexer().List()) > 0 {
			time.Sleep(r.Clock.Minute())
		}
		synctest.Wait()
		var d orderDetail
		get(t, v, "/orders/order-001", &d)
		var told []string
		for _, h := range d.History {
			if strings.Contains(h.Class, "finalizer") || h.Class == "gc" || h.Class == "deleted" {
				told = append(told, h.Text)
			}
		}
		want := []string{
			"finalizer menu.example.com/chef added",
			"deletion started: held by finalizers menu.example.com/chef",
			"last finalizer removed: order-001 is deleted",
			"garbage collector deleted cook order-001-0-g1 (its owner order-001 is gone)",
		}
		if diff := cmp.Diff(want, told); diff != "" {
			t.Errorf("what the history tells of the cancellation (-want +got):\n%s", diff)
		}
		if !d.Order.Gone || d.Order.Phase != "Cancelled" {
			t.Errorf("order: gone %v, phase %s; want gone and Cancelled", d.Order.Gone, d.Order.Phase)
		}
	})
}

func TestButtonsActOnTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, v := open(t)
		for _, tc := range []struct{ path, want string }{
			{"/actions/slow?ms=40", "the front desk now takes 40ms per request"},
			{"/actions/slow?ms=0", "the front desk answers at once again"},
			{"/actions/speed?minute=50", "one kitchen minute now lasts 50 ms"},
			{"/actions/fail?n=2", "the next 2 updates will fail with 429 Too Many Requests"},
			{"/actions/cut-watches", "every watch cut: the runner watches again from the last resourceVersion it saw"},
			{"/actions/vip?dish=tomato-soup", "placed order-001 for a VIP table"},
			{"/actions/rush", "rush hour: 50 orders placed; the rail admits 5 new tickets a second until all are on it"},
		} {
			code, out := post(t, v, tc.path)
			if code != http.StatusOK || out["message"] != tc.want {
				t.Errorf("POST %s: %d %v, want 200 %q", tc.path, code, out, tc.want)
			}
		}
		if got := r.Clock.Minute(); got != 50*time.Millisecond {
			t.Errorf("kitchen minute %v after the speed control, want 50ms", got)
		}
		// The two failed updates are retried with backoff: every order
		// still reaches the table.
		for _, name := range []string{"order-001", "order-051"} {
			served := func(o *kitchen.Order) bool { return o != nil && o.Status.Phase == kitchen.OrderServed }
			if err := r.WaitForOrder(t.Context(), name, served); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestButtonsRefuseBadInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v := open(t)
		for _, tc := range []struct {
			path string
			code int
			want string
		}{
			{"/actions/fail?n=lots", 400, `n: want a whole number from 0 to 100, got "lots"`},
			{"/actions/slow?ms=-5", 400, `ms: want a whole number from 0 to 2000, got "-5"`},
			{"/actions/speed?minute=0", 400, `minute: want a whole number from 1 to 5000, got "0"`},
			{"/actions/truffle", 409, "no open order to act on: place one first"},
			{"/actions/cancel?order=nobody", 404, `orders.menu.example.com "nobody" not found`},
			{"/actions/bake", 404, `no button "bake"`},
		} {
			code, out := post(t, v, tc.path)
			if code != tc.code || out["error"] != tc.want {
				t.Errorf("POST %s: %d %q, want %d %q", tc.path, code, out["error"], tc.code, tc.want)
			}
		}
		var d orderDetail
		if code := get(t, v, "/orders/nobody", &d); code != http.StatusNotFound {
			t.Errorf("GET /orders/nobody: %d, want 404", code)
		}
	})
}

// frameReader reads Server-Sent Events from a pipe.
type frameReader struct{ r *bufio.Reader }

// next returns the data of the next event named "frame".
func (f frameReader) next(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	for {
		line, err := f.r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var out map[string]json.RawMessage
			if err := json.Unmarshal([]byte(data), &out); err != nil {
				t.Fatal(err)
			}
			return out
		}
	}
}

// streamWriter is an http.ResponseWriter whose body is a pipe.
type streamWriter struct {
	h http.Header
	w *io.PipeWriter
}

func (s streamWriter) Header() http.Header         { return s.h }
func (s streamWriter) Write(b []byte) (int, error) { return s.w.Write(b) }
func (s streamWriter) WriteHeader(int)             {}
func (s streamWriter) Flush()                      {}

func TestEventsStreamFramesWithTheOrdersEvents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v := open(t)
		ctx, cancel := context.WithCancel(t.Context())
		pr, pw := io.Pipe()
		w := streamWriter{h: http.Header{}, w: pw}
		served := make(chan struct{})
		go func() {
			v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/events", nil).WithContext(ctx))
			close(served)
		}()
		frames := frameReader{bufio.NewReader(pr)}
		first := frames.next(t)
		if got := w.h.Get("Content-Type"); got != "text/event-stream" {
			t.Errorf("Content-Type %q", got)
		}
		for _, field := range []string{"rv", "orders", "pipe", "gate", "counters", "chart", "notes"} {
			if _, ok := first[field]; !ok {
				t.Errorf("the first frame has no %q", field)
			}
		}
		post(t, v, "/actions/place?dish=caesar-salad")
		var stages []string
		for !contains(stages, "stations") {
			var evs []struct{ Stage, Order string }
			_ = json.Unmarshal(frames.next(t)["events"], &evs)
			for _, e := range evs {
				if e.Order == "dinner/order-001" && !contains(stages, e.Stage) {
					stages = append(stages, e.Stage)
				}
			}
		}
		if stages[0] != "waiter" {
			t.Errorf("the first stage of order-001 in the stream is %q, want waiter (all: %v)", stages[0], stages)
		}
		cancel()
		go io.Copy(io.Discard, pr) // let the handler finish its last write
		<-served
		pr.Close()
	})
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func TestThePageIsServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v := open(t)
		for path, want := range map[string]string{
			"/":                 "<title>kitchensync · the pass</title>",
			"/static/app.js":    "new EventSource(\"/events\")",
			"/static/style.css": "@media (max-width: 900px)",
		} {
			w := httptest.NewRecorder()
			v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), want) {
				t.Errorf("GET %s: %d, body without %q", path, w.Code, want)
			}
		}
		w := httptest.NewRecorder()
		v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/actions/place", nil))
		if w.Code != http.StatusMethodNotAllowed {
			t.Errorf("GET on a button: %d, want 405", w.Code)
		}
	})
}

// TestStaticFilesAreGzippedAndCached: the page's files go gzipped to a
// browser that takes gzip, with an ETag (a second request with it gets
// 304) and, under their tagged URLs, for a year; the icon is there.
func TestStaticFilesAreGzippedAndCached(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v := open(t)
		w := httptest.NewRecorder()
		v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
		page := w.Body.String()
		if cc := w.Header().Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("GET /: Cache-Control %q, want no-cache (the page names its files' versions)", cc)
		}
		i := strings.Index(page, "/static/app.js?v=")
		if i < 0 {
			t.Fatalf("the page does not name its script with its version:\n%s", page)
		}
		script := page[i : i+strings.IndexByte(page[i:], '"')]
		req := httptest.NewRequest(http.MethodGet, script, nil)
		req.Header.Set("Accept-Encoding", "gzip, deflate")
		w = httptest.NewRecorder()
		v.ServeHTTP(w, req)
		if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" ||
			w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" || w.Header().Get("ETag") == "" {
			t.Errorf("GET %s: %d %v", script, w.Code, w.Header())
		}
		req = httptest.NewRequest(http.MethodGet, script, nil)
		req.Header.Set("If-None-Match", w.Header().Get("ETag"))
		w = httptest.NewRecorder()
		v.ServeHTTP(w, req)
		if w.Code != http.StatusNotModified {
			t.Errorf("GET %s again with its ETag: %d, want 304", script, w.Code)
		}
		w = httptest.NewRecorder()
		v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/favicon.ico", nil))
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "image/svg+xml" {
			t.Errorf("GET /favicon.ico: %d %q", w.Code, w.Header().Get("Content-Type"))
		}
	})
}

// TestThePipelineNamesTheRunnersQueue: the queue stage is named after
// the runner's queue, the atomic RealFIFO by default, a DeltaFIFO when
// the restaurant chose one.
func TestThePipelineNamesTheRunnersQueue(t *testing.T) {
	for kind, want := range map[informer.QueueKind]string{informer.QueueAtomic: "RealFIFO (atomic)", informer.QueueDeltaFIFO: "DeltaFIFO"} {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			r, err := restaurant.Open(ctx, restaurant.Config{Tracer: trace.New(), InformerOptions: []informer.FactoryOption{informer.WithQueue(kind)}})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Rail.ShutDown()
			v := liveview.Handler(ctx, r)
			var f struct{ Pipe struct{ Queue string } }
			get(t, v, "/state", &f)
			if f.Pipe.Queue != want {
				t.Errorf("%v: the queue stage is called %q, want %q", kind, f.Pipe.Queue, want)
			}
			cancel()
			synctest.Wait()
		})
	}
}
