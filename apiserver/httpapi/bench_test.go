package httpapi_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// BenchmarkList lists 100 widgets over HTTP, as JSON and as a Table.
func BenchmarkList(b *testing.B) {
	srv := apiservertest.NewServer(b)
	c := client.New[*apiservertest.Widget](srv).Namespace("default")
	for i := range 100 {
		w := apiservertest.NewWidget("default", fmt.Sprintf("w%03d", i))
		w.Spec.Color = "red"
		if _, err := c.Create(ctx, w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	ts := httptest.NewServer(httpapi.NewHandler(srv))
	defer ts.Close()
	for name, accept := range map[string]string{"json": "application/json", "table": tableAccept} {
		b.Run(name, func(b *testing.B) {
			var bytes int64
			for b.Loop() {
				req, _ := http.NewRequest("GET", ts.URL+wPath, nil)
				req.Header.Set("Accept", accept)
				resp, err := ts.Client().Do(req)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				bytes += n
			}
			b.ReportMetric(float64(100*b.N)/b.Elapsed().Seconds(), "objects/s")
			b.ReportMetric(float64(bytes)/float64(100*b.N), "bytes/object")
		})
	}
}

// BenchmarkWatch measures events streamed over HTTP to one watcher: each
// iteration is one create, read back as one line of the stream.
func BenchmarkWatch(b *testing.B) {
	srv := apiservertest.NewServer(b)
	ts := httptest.NewServer(httpapi.NewHandler(srv))
	defer ts.Close()
	resp, err := ts.Client().Get(ts.URL + wPath + "?watch=true&resourceVersion=0")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	c := client.New[*apiservertest.Widget](srv).Namespace("default")
	i := 0
	for b.Loop() {
		if _, err := c.Create(ctx, apiservertest.NewWidget("default", fmt.Sprintf("w%d", i)), meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
		if !lines.Scan() {
			b.Fatal("the watch ended")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkWatchFanOutOverHTTP measures events streamed over HTTP to many
// watchers at once: one writer creates b.N objects while every watcher
// reads its stream; events/s counts lines received by all of them.
func BenchmarkWatchFanOutOverHTTP(b *testing.B) {
	for _, watchers := range []int{1, 100} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			srv := apiservertest.NewServerWithOptions(b, apiserver.Options{HistorySize: b.N + 100, WatchBufferSize: b.N + 100})
			ts := httptest.NewServer(httpapi.NewHandler(srv))
			defer ts.Close()
			hc := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: watchers}}
			var wg sync.WaitGroup
			for range watchers {
				resp, err := hc.Get(ts.URL + wPath + "?watch=true&resourceVersion=" + srv.ResourceVersion())
				if err != nil {
					b.Fatal(err)
				}
				wg.Go(func() {
					defer resp.Body.Close()
					lines := bufio.NewScanner(resp.Body)
					for n := 0; n < b.N && lines.Scan(); n++ {
					}
				})
			}
			c := client.New[*apiservertest.Widget](srv).Namespace("default")
			b.ResetTimer()
			for i := range b.N {
				if _, err := c.Create(ctx, apiservertest.NewWidget("default", fmt.Sprintf("w%d", i)), meta.CreateOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N*watchers)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkWatchInitialOverHTTP has clients each watch 1,000 labelled
// widgets, among 10,000 others, from no resourceVersion and read the ADDED
// event of every one:
// watch delivery over HTTP with no writer involved, as compare/realserver
// measures it against kube-apiserver, in plain HTTP and in HTTPS.
func BenchmarkWatchInitialOverHTTP(b *testing.B) {
	const objects, others = 1000, 10_000 // as in compare/realserver: the 10,000 listed, then 1,000 watched
	for _, scheme := range []string{"http", "https"} {
		for _, watchers := range []int{1, 100} {
			b.Run(fmt.Sprintf("%s/watchers=%d", scheme, watchers), func(b *testing.B) {
				benchWatchInitial(b, scheme == "https", watchers, objects, others)
			})
		}
	}
}

func benchWatchInitial(b *testing.B, tls bool, watchers, objects, others int) {
	srv := apiservertest.NewServer(b)
	c := client.New[*apiservertest.Widget](srv).Namespace("default")
	for i := range objects + others {
		w := apiservertest.NewWidget("default", fmt.Sprintf("w-%d", i))
		if i < objects {
			w.Labels = map[string]string{"set": "w"}
		}
		if _, err := c.Create(ctx, w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	ts := httptest.NewUnstartedServer(httpapi.NewHandler(srv))
	if tls {
		ts.StartTLS()
	} else {
		ts.Start()
	}
	defer ts.Close()
	hc := ts.Client()
	hc.Transport.(*http.Transport).MaxIdleConnsPerHost = watchers
	b.ResetTimer()
	cpu := apiservertest.ProcessCPU()
	for range b.N {
		var wg sync.WaitGroup
		for range watchers {
			resp, err := hc.Get(ts.URL + wPath + "?watch=true&labelSelector=set%3Dw")
			if err != nil {
				b.Fatal(err)
			}
			wg.Go(func() {
				defer resp.Body.Close()
				lines := bufio.NewScanner(resp.Body)
				for n := 0; n < objects && lines.Scan(); n++ {
				}
			})
		}
		wg.Wait()
	}
	b.ReportMetric(float64(b.N*watchers*objects)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(apiservertest.ProcessCPU()-cpu)/float64(time.Microsecond)/float64(b.N*watchers*objects), "cpu-µs/event")
}

// BenchmarkRequestsOverHTTP sends one request at a time over a kept-alive
// connection, as compare/realserver's create and get rows do, in plain
// HTTP and in HTTPS; cpu-µs/op is this process's, client included.
func BenchmarkRequestsOverHTTP(b *testing.B) {
	for _, scheme := range []string{"http", "https"} {
		srv := apiservertest.NewServer(b)
		c := client.New[*apiservertest.Widget](srv).Namespace("default")
		for i := range 100 {
			if _, err := c.Create(ctx, apiservertest.NewWidget("default", fmt.Sprintf("g-%d", i)), meta.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		ts := httptest.NewUnstartedServer(httpapi.NewHandler(srv))
		if scheme == "https" {
			ts.StartTLS()
		} else {
			ts.Start()
		}
		defer ts.Close()
		hc := ts.Client()
		do := func(b *testing.B, method, path, body string, want int) {
			req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := hc.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				b.Fatalf("%s %s: %d", method, path, resp.StatusCode)
			}
		}
		created := 0
		b.Run(scheme+"/create", func(b *testing.B) {
			cpu := apiservertest.ProcessCPU()
			for range b.N {
				do(b, "POST", wPath, fmt.Sprintf(`{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"c-%d","labels":{"set":"c"}},"spec":{"color":"red"}}`, created), 201)
				created++
			}
			b.ReportMetric(float64(apiservertest.ProcessCPU()-cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
		})
		b.Run(scheme+"/get", func(b *testing.B) {
			cpu := apiservertest.ProcessCPU()
			for i := range b.N {
				do(b, "GET", fmt.Sprintf("%s/g-%d", wPath, i%100), "", 200)
			}
			b.ReportMetric(float64(apiservertest.ProcessCPU()-cpu)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
		})
	}
}
