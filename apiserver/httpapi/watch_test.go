package httpapi_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// stream is an open watch over HTTP, read one line (one event) at a time.
type stream struct {
	t      *testing.T
	resp   *http.Response
	lines  *bufio.Scanner
	cancel context.CancelFunc
}

// watch opens a watch and checks that it streams JSON.
func watch(t *testing.T, url string, header ...string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("watch %s: %d %q", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return &stream{t: t, resp: resp, lines: bufio.NewScanner(resp.Body), cancel: cancel}
}

// next reads the next event, blocking until it arrives.
func (s *stream) next() any {
	s.t.Helper()
	if !s.lines.Scan() {
		s.t.Fatalf("watch ended early: %v", s.lines.Err())
	}
	return decode(s.t, s.lines.Text())
}

// expect reads one event per want and compares them all.
func (s *stream) expect(want ...string) {
	s.t.Helper()
	var got, wantEvents []any
	for _, w := range want {
		wantEvents = append(wantEvents, decode(s.t, w))
		got = append(got, s.next())
	}
	if diff := cmp.Diff(wantEvents, got); diff != "" {
		s.t.Errorf("events (-want +got):\n%s", diff)
	}
}

// expectEnd checks that the server ended the stream.
func (s *stream) expectEnd() {
	s.t.Helper()
	if s.lines.Scan() {
		s.t.Errorf("unexpected event after the end: %s", s.lines.Text())
	}
}

func event(typ, object string) string { return `{"type":"` + typ + `","object":` + object + `}` }

func TestWatch(t *testing.T) {
	srv := seeded(t, apiserver.Options{})
	ts := serve(t, srv)
	s := watch(t, ts.URL+wPath+"?watch=true&resourceVersion=5")
	c := client.New[*apiservertest.Widget](srv).Namespace("default")

	w4 := apiservertest.NewWidget("default", "w4")
	w4.Spec.Color = "green"
	if _, err := c.Create(ctx, w4, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	s.expect(event("ADDED", w4JSON))

	if _, err := c.Patch(ctx, "w4", meta.MergePatchType, []byte(`{"spec":{"size":2}}`), meta.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	w4Sized := strings.NewReplacer(`"6"`, `"7"`, `"generation":1`, `"generation":2`, `"green"}`, `"green","size":2}`).Replace(w4JSON)
	s.expect(event("MODIFIED", w4Sized))

	// Another namespace is not watched.
	if _, err := c.Namespace("other").Create(ctx, apiservertest.NewWidget("other", "w5"), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, "w4", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	s.expect(event("DELETED", strings.Replace(w4Sized, `"7"`, `"9"`, 1)))

	// The client goes away: the handler returns and the server's watch
	// ends. Close blocks until every handler has returned.
	s.cancel()
	ts.Close()
}

func TestWatchFromNowAndServerClose(t *testing.T) {
	srv := seeded(t, apiserver.Options{})
	ts := serve(t, srv)
	s := watch(t, ts.URL+wPath+"?watch=1")
	s.expect(event("ADDED", w1JSON), event("ADDED", w2JSON))
	srv.CloseWatches() // a clean close: the stream ends without an error
	s.expectEnd()
}

// A negative timeoutSeconds ends the watch before it begins, as the real
// server's negative timer does: never a watch open for ever.
func TestWatchNegativeTimeout(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	watch(t, ts.URL+wPath+"?watch=1&timeoutSeconds=-1").expectEnd()
}

func TestWatchListMode(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	s := watch(t, ts.URL+wPath+"?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=app%3Dshop")
	s.expect(event("ADDED", w1JSON), event("BOOKMARK",
		`{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"resourceVersion":"5","annotations":{"k8s.io/initial-events-end":"true"}}}`)) // a custom kind's bookmark: no spec
}

func TestWatchTable(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	s := watch(t, ts.URL+wPath+"?watch=true&fieldSelector=metadata.name%3Dw1", "Accept", tableAccept)
	row := `{"cells":["w1","red","0s"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"2","generation":1,"creationTimestamp":"<time>","labels":{"app":"shop"}}}}`
	got := s.next()
	// The age of a fresh object is 0s or 1s: blank it.
	got.(map[string]any)["object"].(map[string]any)["rows"].([]any)[0].(map[string]any)["cells"].([]any)[2] = "0s"
	want := decode(t, event("ADDED", `{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"2"},"columnDefinitions":`+widgetColumns+`,"rows":[`+row+`]}`))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("event (-want +got):\n%s", diff)
	}
}

func TestWatchExpired(t *testing.T) {
	srv := seeded(t, apiserver.Options{CompactionDropsHistory: true})
	ts := serve(t, srv)
	srv.CompactHistory()
	s := watch(t, ts.URL+wPath+"?watch=true&resourceVersion=3")
	s.expect(event("ERROR", failure(410, "Expired", "too old resource version: 3 (5)", "")))
	s.expectEnd()

	// An exact list from before a compaction: 410 in the words of
	// kube-apiserver's storage, which serves such lists.
	got := do(t, ts, "GET", wPath+"?resourceVersion=3&resourceVersionMatch=Exact", "")
	want := failure(410, "Expired", "The resourceVersion for the provided list is too old.", "")
	if diff := cmp.Diff(decode(t, want), got.Body); diff != "" || got.Code != 410 {
		t.Errorf("exact list after compaction: code %d, body (-want +got):\n%s", got.Code, diff)
	}
}

func TestWatchBadOptions(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	got := do(t, ts, "GET", wPath+"?watch=true&continue=abc", "")
	want := failure(422, "Invalid", `ListOptions.meta.k8s.io "" is invalid: continue: Forbidden: continue is forbidden for watch`,
		`{"group":"meta.k8s.io","kind":"ListOptions","causes":[{"reason":"FieldValueForbidden","message":"Forbidden: continue is forbidden for watch","field":"continue"}]}`)
	if diff := cmp.Diff(decode(t, want), got.Body); diff != "" || got.Code != 422 {
		t.Errorf("code %d, body (-want +got):\n%s", got.Code, diff)
	}
}
