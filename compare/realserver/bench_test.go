package realserver

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/compare/internal/bench"
)

// The HTTP fronts side by side: kitchensync's apiserver/httpapi (in this
// process, over loopback, in plain HTTP and in HTTPS) and a real
// kube-apiserver with etcd (the Widget CRD installed, HTTPS only), the
// same raw requests to each. Like TestRealServer it skips unless
// KITCHENSYNC_REAL_APISERVER=1 and the binaries are built.
//
//	cd compare && KITCHENSYNC_REAL_APISERVER=1 go test -run '^$' -bench HTTPFront -benchtime 10x ./realserver/

const widgetsPath = "/apis/test.kitchensync.io/v1/namespaces/default/widgets"

// front is one server under test: a base URL, a client for it, and the
// CPU time its server has used so far: for kitchensync, this whole
// process's (the clients' work included, which only makes its figure
// larger); for kube-apiserver, its and etcd's.
type front struct {
	url    string
	client *http.Client
	cpu    func() time.Duration
}

// frontNames are the servers under test, in the order their rows run:
// kitchensync over plain HTTP (as tests serve it), kitchensync over
// HTTPS (as kube-apiserver is always served: like for like), and
// kube-apiserver.
var frontNames = []string{"kitchensync", "kitchensync-tls", "kube-apiserver"}

// writeFrontNames are the servers of the create rows: those above, and
// kitchensync keeping its objects on the disk (apiserver.Open, as
// examples/serve -data), over HTTPS: a write answered only once it is
// synced, as kube-apiserver answers once etcd has synced it.
var writeFrontNames = []string{"kitchensync", "kitchensync-tls", "kitchensync-durable-tls", "kube-apiserver"}

// fronts starts the servers once per benchmark and returns them by name.
// Each kitchensync front has its own server. With http2, the clients of
// the HTTPS fronts offer HTTP/2 as client-go's do, and kitchensync's
// HTTPS fronts take it, as kube-apiserver always does: requests, and
// watches, then share a connection instead of each holding one.
func fronts(b *testing.B, http2 bool) map[string]front {
	r := startReal(b)
	installCRD(b, r, "widgets.test.kitchensync.io", widgetCRD)
	client := r.client
	tr := r.client.Transport.(bearer).next.(*http.Transport)
	tr.MaxIdleConnsPerHost = 200
	if http2 {
		tr = tr.Clone()
		tr.ForceAttemptHTTP2 = true
		client = &http.Client{Timeout: r.client.Timeout, Transport: bearer{r.client.Transport.(bearer).token, tr}}
	}
	fs := map[string]front{"kube-apiserver": {r.url, client, realCPU(r.kubeconfig)}}
	for _, name := range writeFrontNames[:3] {
		opts := apiserver.Options{HistorySize: 200_000, WatchBufferSize: 200_000}
		srv := apiservertest.NewServerWithOptions(b, opts)
		if name == "kitchensync-durable-tls" {
			var err error
			if srv, err = apiserver.Open(apiservertest.NewScheme(), b.TempDir(), opts); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { srv.Close() })
		}
		ks := httptest.NewUnstartedServer(httpapi.NewHandler(srv))
		if strings.HasSuffix(name, "-tls") {
			ks.EnableHTTP2 = http2
			ks.StartTLS()
		} else {
			ks.Start()
		}
		b.Cleanup(ks.Close)
		client := ks.Client()
		client.Transport.(*http.Transport).MaxIdleConnsPerHost = 200
		fs[name] = front{ks.URL, client, bench.ProcessCPU}
	}
	return fs
}

// do sends one request and reads the whole answer; it fails b on a status
// other than want.
func (f front) do(b *testing.B, method, path, body string, want int) []byte {
	req, err := http.NewRequest(method, f.url+path, strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != want {
		b.Fatalf("%s %s: %d %v %.200s", method, path, resp.StatusCode, err, raw)
	}
	return raw
}

// fill creates n widgets named prefix-0 .. prefix-(n-1), 4 at a time,
// with the extra metadata meta (e.g. `"labels":{"set":"w"}`), if any.
func (f front) fill(b *testing.B, prefix string, n int, meta string) {
	if meta != "" {
		meta = "," + meta
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range 4 {
		wg.Go(func() {
			for i := range next {
				f.do(b, "POST", widgetsPath, widget(fmt.Sprintf(`"name":"%s-%d"%s`, prefix, i, meta), `"spec":{"color":"red","size":1}`), 201)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// BenchmarkHTTPFront runs the same requests against each front, the
// HTTPS ones over HTTP/1.1: every watch a connection, and its TLS
// handshake, of its own.
func BenchmarkHTTPFront(b *testing.B) { benchFronts(b, fronts(b, false)) }

// BenchmarkHTTPFrontHTTP2 is BenchmarkHTTPFront with the HTTPS fronts
// over HTTP/2, as client-go talks to kube-apiserver (the plain HTTP
// front stays HTTP/1.1):
//
//	cd compare && KITCHENSYNC_REAL_APISERVER=1 go test -run '^$' -bench HTTPFrontHTTP2 -benchtime 10x ./realserver/
func BenchmarkHTTPFrontHTTP2(b *testing.B) { benchFronts(b, fronts(b, true)) }

func benchFronts(b *testing.B, fs map[string]front) {
	for _, clients := range []int{1, 16} {
		for _, name := range writeFrontNames {
			f := fs[name]
			row := "create/" + name
			if clients > 1 {
				row = fmt.Sprintf("create%d/%s", clients, name)
			}
			b.Run(row, func(b *testing.B) {
				n := f.loopConcurrently(b, clients, func(i int) {
					f.do(b, "POST", widgetsPath, widget(fmt.Sprintf(`"name":"c%d-%d-%d","labels":{"set":"c"}`, clients, b.N, i), `"spec":{"color":"red"}`), 201)
				})
				b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "requests/s")
			})
		}
	}
	for _, name := range frontNames {
		f := fs[name]
		// The list rows list the 10,000 widgets l-* alone: the faster
		// front created more widgets in its create row.
		f.do(b, "DELETE", widgetsPath+"?labelSelector=set%3Dc", "", 200)
		f.fill(b, "l", 10_000, "")
		b.Run("get/"+name, func(b *testing.B) {
			n := f.loop(b, func(i int) { f.do(b, "GET", fmt.Sprintf("%s/l-%d", widgetsPath, i%10_000), "", 200) })
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "requests/s")
		})
		b.Run("list10k/"+name, func(b *testing.B) { benchList(b, f, "") })
		b.Run("list10k-identity/"+name, func(b *testing.B) { benchList(b, f, "identity") })
	}
	for _, name := range frontNames {
		fs[name].fill(b, "w", watchObjects, `"labels":{"set":"w"}`)
	}
	for _, watchers := range []int{1, 100} {
		for _, name := range frontNames {
			f := fs[name]
			b.Run(fmt.Sprintf("watch%d/%s", watchers, name), func(b *testing.B) { benchWatch(b, f, watchers) })
		}
	}
}

// minRowTime is how long a row runs at least, past its b.N operations:
// with -benchtime 10x alone, kitchensync's rows last a few milliseconds,
// and one pause of a loaded machine decides their figure. The same holds
// for every server; kube-apiserver's slow rows take longer anyway.
const minRowTime = time.Second

// loop runs op b.N times, and, unless b.N is 1 (the probe run), on until
// the row has run for minRowTime; it returns how many times op ran. It
// suppresses ns/op, which would count only b.N operations: the rows
// report their own rates, and cpu-ms/op, the CPU time f's server used
// per op, which, unlike a rate, hardly depends on what else the machine
// runs.
func (f front) loop(b *testing.B, op func(i int)) int {
	start, cpu := time.Now(), f.cpu()
	n := 0
	for ; n < b.N || (b.N > 1 && time.Since(start) < minRowTime); n++ {
		op(n)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(f.cpu()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
	return n
}

// loopConcurrently is loop with clients goroutines sharing the
// operations: op(i) runs once for each i, by one of them. It returns how
// many ran.
func (f front) loopConcurrently(b *testing.B, clients int, op func(i int)) int {
	if clients == 1 {
		return f.loop(b, op)
	}
	start, cpu := time.Now(), f.cpu()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < b.N || (b.N > 1 && time.Since(start) < minRowTime); i = int(next.Add(1)) - 1 {
				op(i)
			}
		})
	}
	wg.Wait()
	n := int(next.Load()) - clients
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(float64(f.cpu()-cpu)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
	return n
}

// benchList lists the 10,000 widgets l-*. With acceptEncoding "" the
// client sends what Go's (and client-go's) sends, "Accept-Encoding: gzip",
// and decompresses what comes gzipped: kube-apiserver gzips a response
// over 128 KiB then, kitchensync never does. "identity" asks both for
// the bytes as they are. gzipped says whether the lists came gzipped.
func benchList(b *testing.B, f front, acceptEncoding string) {
	gzipped := 0.0
	var body bytes.Buffer // reused: the client allocates nothing per list, for any server
	n := f.loop(b, func(int) {
		req, err := http.NewRequest("GET", f.url+widgetsPath+"?labelSelector=", nil)
		if err != nil {
			b.Fatal(err)
		}
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		resp, err := f.client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body.Reset()
		_, err = body.ReadFrom(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || body.Len() < 10_000*100 {
			b.Fatalf("list: %d %v, %d bytes", resp.StatusCode, err, body.Len())
		}
		if resp.Uncompressed || resp.Header.Get("Content-Encoding") == "gzip" {
			gzipped = 1
		}
	})
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "lists/s")
	b.ReportMetric(gzipped, "gzipped")
}

// watchObjects is how many objects each watch of benchWatch delivers.
const watchObjects = 1000

// benchWatch measures how fast a server delivers watch events: watchers
// clients at once watch the watchObjects widgets labelled set=w from no
// resourceVersion, which both servers answer with an ADDED event for
// each of them (from kube-apiserver's watch cache), read to the last.
// No writer takes part, so the figure is delivery throughput, not how
// fast the server creates objects. events/s counts the events received
// by all clients.
func benchWatch(b *testing.B, f front, watchers int) {
	n := f.loop(b, func(int) {
		var wg sync.WaitGroup
		for range watchers {
			resp, err := f.client.Get(f.url + widgetsPath + "?watch=true&labelSelector=set%3Dw&timeoutSeconds=600")
			if err != nil {
				b.Fatal(err)
			}
			wg.Go(func() {
				defer resp.Body.Close()
				lines := bufio.NewScanner(resp.Body)
				lines.Buffer(make([]byte, 64<<10), 1<<20)
				n := 0
				for n < watchObjects && lines.Scan() {
					n++
				}
				if n != watchObjects {
					b.Errorf("a watcher got %d events, want %d", n, watchObjects)
				}
			})
		}
		wg.Wait()
	})
	b.ReportMetric(float64(n*watchers*watchObjects)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkTimeToReady starts each server until it answers /readyz: the
// real one with start.sh (etcd and kube-apiserver), kitchensync's as a
// server and an HTTP listener in this process, until it answers a list.
func BenchmarkTimeToReady(b *testing.B) {
	b.Run("kitchensync", func(b *testing.B) {
		for range b.N {
			srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
			ts := httptest.NewServer(httpapi.NewHandler(srv))
			resp, err := http.Get(ts.URL + widgetsPath) // no /readyz here: the first API answer
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Fatalf("first list: %v %v", resp, err)
			}
			resp.Body.Close()
			ts.Close()
		}
	})
	b.Run("kube-apiserver", func(b *testing.B) {
		startReal(b).client.CloseIdleConnections() // skips unless enabled and built; stopped at the end
		tools, _ := toolsDir()
		for range b.N {
			out, err := exec.Command(filepath.Join(tools, "start.sh")).Output() // returns once /readyz answers
			if err != nil {
				b.Fatalf("start.sh: %v", err)
			}
			b.StopTimer()
			if err := exec.Command(filepath.Join(tools, "stop.sh"), parseVars(string(out))["DIR"]).Run(); err != nil {
				b.Fatalf("stop.sh: %v", err)
			}
			b.StartTimer()
		}
	})
}
