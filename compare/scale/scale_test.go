package scale

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// maxObjects caps the object counts BenchmarkScale runs: 1M objects take
// a few minutes to write over HTTP and about 3 GB of memory between the
// two processes.
var maxObjects = flag.Int("scale.max", 100_000, "largest object count BenchmarkScale runs (10000, 100000 or 1000000)")

const (
	widgets = "/apis/test.kitchensync.io/v1/namespaces/default/widgets"
	payload = 1000 // bytes of annotation per object: with the rest, about 1.2 KB of JSON
)

// BenchmarkScale is one machine holding many objects and many watchers
// over HTTP. The server (apiserver/httpapi, the test kinds, default
// options) runs in a child process, so that its memory is its own. For
// each object count it writes that many Widgets of about 1.2 KB (a 1,000
// byte annotation each, 8 writers), then reports:
//
//   - fill-objects/s: how fast they were written;
//   - heap-B/object and rss-B/object: the server's live heap (after a
//     collection) and its resident set, per object;
//   - list-s: a paginated list of every object (limit 500), as a
//     reflector's first list pages through them;
//
// and then opens 100, 1,000 and 10,000 watches from the current
// resourceVersion (idle: no event waiting), reporting per watcher count:
//
//   - heap-B/watch, stack-B/watch and rss-B/watch: what an idle watch
//     costs the server (heap; goroutine stacks; resident set), from the
//     figures before any watch;
//   - rss-MiB: the server's resident set with that many watches open;
//   - to-all-ms: the time from one create until every watcher has read
//     its event (active), the median of 3.
//
// The child inherits the environment: GOGC and GOMEMLIMIT set for the
// run apply to the server (by default its RSS is about twice its live
// heap, as GOGC=100 lets it be). Run it once per row:
//
//	cd compare && go test -run '^$' -bench Scale -benchtime 1x ./scale/
//	cd compare && go test -run '^$' -bench Scale -benchtime 1x -timeout 60m ./scale/ -scale.max 1000000
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		if n > *maxObjects {
			continue
		}
		b.Run(fmt.Sprintf("objects=%dk", n/1000), func(b *testing.B) { benchScale(b, n) })
	}
}

func benchScale(b *testing.B, n int) {
	c := startServer(b, "1")
	empty := c.memory(b)
	start := time.Now()
	fill(b, c.url, n)
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "fill-objects/s")
	full := c.memory(b)
	b.ReportMetric(grew(empty.Heap, full.Heap)/float64(n), "heap-B/object")
	b.ReportMetric(grew(empty.RSS, full.RSS)/float64(n), "rss-B/object")
	start = time.Now()
	if got := listAll(b, c.url); got != n {
		b.Fatalf("listed %d objects, want %d", got, n)
	}
	b.ReportMetric(time.Since(start).Seconds(), "list-s")
	watchRows(b, c, full, http1Watches, true)
	b.ReportMetric(0, "ns/op")
}

// watchRows opens 100, 1,000 and 10,000 watches to c through client and
// reports, per watcher count, what they cost c from before (see
// BenchmarkScale), and, with latency, to-all-ms.
func watchRows(b *testing.B, c *child, before memory, client *http.Client, latency bool) {
	ws := &watchers{url: c.url, client: client}
	defer ws.stop()
	for _, w := range []int{100, 1000, 10_000} {
		ws.open(b, w)
		m := c.memory(b)
		tag := fmt.Sprintf("w%d-", w)
		b.ReportMetric(grew(before.Heap, m.Heap)/float64(w), tag+"heap-B/watch")
		b.ReportMetric(grew(before.Stacks, m.Stacks)/float64(w), tag+"stack-B/watch")
		b.ReportMetric(grew(before.RSS, m.RSS)/float64(w), tag+"rss-B/watch")
		if !latency {
			continue
		}
		b.ReportMetric(float64(m.RSS)/(1<<20), tag+"rss-MiB")
		var lat []float64
		for i := range 3 {
			lat = append(lat, ws.toAll(b, fmt.Sprintf("e-%d-%d", w, i)).Seconds()*1000)
		}
		slices.Sort(lat)
		b.ReportMetric(lat[1], tag+"to-all-ms")
	}
}

// BenchmarkScaleWatchesHTTP2 is BenchmarkScale's watch rows over HTTP/2,
// as client-go speaks to kube-apiserver: the watches share connections,
// up to maxStreams on each, where over HTTP/1.1 each holds one of its
// own. It is HTTP/2 without TLS (h2c), so that the rows compare with
// BenchmarkScale's plain HTTP/1.1 ones, over 10,000 objects.
//
//	cd compare && go test -run '^$' -bench 'ScaleWatchesHTTP2|IdleWatchFloor' -benchtime 1x ./scale/
func BenchmarkScaleWatchesHTTP2(b *testing.B) {
	c := startServer(b, "1"+h2cSuffix)
	fill(b, c.url, 10_000)
	watchRows(b, c, c.memory(b), h2cWatches, true)
	b.ReportMetric(0, "ns/op")
}

// BenchmarkIdleWatchFloor is the reference for BenchmarkScale's idle
// watches: what an idle request held open costs a bare net/http server
// (see [bareHandler]) in a child process, opened and measured as
// BenchmarkScale opens and measures its watches (http1), and over h2c
// (see BenchmarkScaleWatchesHTTP2). Over HTTP/1.1 each one holds a
// connection with its read and write buffers and two goroutines (the
// connection's, which runs the handler, and the one that notices the
// client going away): no server on net/http can hold an idle watch for
// less. Over HTTP/2 a held request is a stream and its handler's
// goroutine, on a connection it shares.
//
//	cd compare && go test -run '^$' -bench IdleWatchFloor -benchtime 1x ./scale/
func BenchmarkIdleWatchFloor(b *testing.B) {
	b.Run("http1", func(b *testing.B) {
		c := startServer(b, bareServer)
		watchRows(b, c, c.memory(b), http1Watches, false)
		b.ReportMetric(0, "ns/op")
	})
	b.Run("h2c", func(b *testing.B) {
		c := startServer(b, bareServer+h2cSuffix)
		watchRows(b, c, c.memory(b), h2cWatches, false)
		b.ReportMetric(0, "ns/op")
	})
}

// grew is how much a figure grew from before to after (negative if it
// shrank: the RSS does when the collector returns memory).
func grew(before, after uint64) float64 { return float64(after) - float64(before) }

// widget is the JSON of the i-th object, named prefix-i.
func widget(prefix string, i int) string {
	name := fmt.Sprintf("%s-%d", prefix, i)
	ann := strings.Repeat("x", payload-len(name)) + name
	return fmt.Sprintf(`{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":%q,"labels":{"app":"scale"},"annotations":{"payload":%q}},"spec":{"color":"red","size":%d,"tags":["a","b"]}}`, name, ann, i)
}

// client is what every request uses: as many connections as requests.
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// post creates one object.
func post(b *testing.B, url, body string) {
	resp, err := client.Post(url+widgets, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		b.Fatalf("create: %s", resp.Status)
	}
}

// fill creates n objects, 8 at a time.
func fill(b *testing.B, url string, n int) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range next {
				post(b, url, widget("w", i))
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// listAll pages through every object, 500 at a time, and returns how many
// there were. It reads each page's continue token and counts its items
// without decoding them, so that list-s is the server's time (and the
// transfer's), not a client's decoding.
func listAll(b *testing.B, url string) int {
	n, cont := 0, ""
	item := []byte(`{"apiVersion":"test.kitchensync.io/v1","kind":"Widget",`)
	for {
		resp, err := client.Get(url + widgets + "?limit=500&continue=" + cont)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("list: %v %s", err, resp.Status)
		}
		n += bytes.Count(body, item)
		cont = ""
		if m := continueRE.FindSubmatch(body[:min(len(body), 4096)]); m != nil {
			cont = string(m[1])
		}
		if cont == "" {
			return n
		}
	}
}

// continueRE finds a list's continue token, in its metadata, which comes
// before its items.
var continueRE = regexp.MustCompile(`"continue":"([^"]+)"`)

// watchers are open watches, each read by a goroutine of its own.
type watchers struct {
	url    string
	client *http.Client
	cancel []context.CancelFunc
	lines  []chan time.Time
	wg     sync.WaitGroup
}

// open opens watches until there are total, 64 at a time, from the
// server's current resourceVersion (so no event is waiting), and returns
// once every one has its response headers.
func (ws *watchers) open(b *testing.B, total int) {
	rv := currentRV(b, ws.url)
	sem := make(chan struct{}, 64)
	var mu sync.Mutex
	var opening sync.WaitGroup
	for range total - len(ws.lines) {
		sem <- struct{}{}
		opening.Go(func() {
			defer func() { <-sem }()
			ctx, cancel := context.WithCancel(context.Background())
			req, _ := http.NewRequestWithContext(ctx, "GET", ws.url+widgets+"?watch=true&timeoutSeconds=3600&resourceVersion="+rv, nil)
			resp, err := ws.client.Do(req)
			if err != nil {
				b.Error(err)
				cancel()
				return
			}
			got := make(chan time.Time, 16)
			mu.Lock()
			ws.cancel, ws.lines = append(ws.cancel, cancel), append(ws.lines, got)
			mu.Unlock()
			ws.wg.Go(func() {
				defer resp.Body.Close()
				r := bufio.NewReaderSize(resp.Body, 64<<10)
				for {
					if _, err := r.ReadSlice('\n'); err != nil {
						return
					}
					got <- time.Now()
				}
			})
		})
	}
	opening.Wait()
	if len(ws.lines) != total {
		b.Fatalf("%d watches open, want %d", len(ws.lines), total)
	}
}

// http1Watches opens a connection per watch.
var http1Watches = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: -1}}

// h2cWatches speaks HTTP/2 without TLS: its watches share connections,
// as many on each as the server allows.
var h2cWatches = func() *http.Client {
	t := &http.Transport{Protocols: new(http.Protocols)}
	t.Protocols.SetUnencryptedHTTP2(true)
	return &http.Client{Transport: t}
}()

// toAll creates one object and returns how long it took until every
// watcher had read its event.
func (ws *watchers) toAll(b *testing.B, name string) time.Duration {
	start := time.Now()
	post(b, ws.url, widget(name, 0))
	var last time.Time
	for _, got := range ws.lines {
		select {
		case t := <-got:
			if t.After(last) {
				last = t
			}
		case <-time.After(time.Minute):
			b.Fatal("a watcher had no event after a minute")
		}
	}
	return last.Sub(start)
}

func (ws *watchers) stop() {
	for _, cancel := range ws.cancel {
		cancel()
	}
	ws.wg.Wait()
}

// currentRV is the resourceVersion of an empty list.
func currentRV(b *testing.B, url string) string {
	resp, err := client.Get(url + widgets + "?limit=1")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var l struct {
		Metadata struct{ ResourceVersion string }
	}
	if err := jsonDecode(resp.Body, &l); err != nil {
		b.Fatal(err)
	}
	return l.Metadata.ResourceVersion
}
