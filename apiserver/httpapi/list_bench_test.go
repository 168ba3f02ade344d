package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// BenchmarkListOverHTTP10k lists 10,000 widgets over HTTP (and HTTPS) as
// JSON, the list an informer makes when it starts on a large cluster. cpu-ms/op is
// the process's CPU time per list, server and client: on a loaded
// machine a steadier figure than the time.
func BenchmarkListOverHTTP10k(b *testing.B) {
	const n = 10000
	srv := apiservertest.NewServer(b)
	c := client.New[*apiservertest.Widget](srv).Namespace("default")
	for i := range n {
		w := apiservertest.NewWidget("default", fmt.Sprintf("w%05d", i))
		w.Labels = map[string]string{"app": "bench"}
		w.Spec.Color = "red"
		if _, err := c.Create(ctx, w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	for _, scheme := range []string{"http", "https"} {
		b.Run(scheme, func(b *testing.B) {
			ts := httptest.NewUnstartedServer(httpapi.NewHandler(srv))
			if scheme == "https" {
				ts.StartTLS()
			} else {
				ts.Start()
			}
			defer ts.Close()
			cpu := apiservertest.ProcessCPU()
			for b.Loop() {
				resp, err := ts.Client().Get(ts.URL + wPath)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatal(resp.Status)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "objects/s")
			b.ReportMetric(float64(apiservertest.ProcessCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
