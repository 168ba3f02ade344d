package browsertest

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// percentiles returns the 50th, 95th and 100th percentiles of ms, by the
// nearest-rank method.
func percentiles(ms []float64) map[int]float64 {
	s := slices.Sorted(slices.Values(ms))
	out := map[int]float64{}
	for _, p := range []int{50, 95, 100} {
		out[p] = s[max(0, (len(s)*p+99)/100-1)]
	}
	return out
}

func maxOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}

// weight is what the page costs to load.
type weight struct {
	total int
	files string
}

// pageWeight fetches the page and every file it links, gzipped as a
// browser asks, and adds up the bytes sent.
func pageWeight(t *testing.T, url string) weight {
	t.Helper()
	fetch := func(u string) (string, int) {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultTransport.RoundTrip(req) // no transparent decompression
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("GET %s: %d, Content-Encoding %q, want 200 gzip", u, res.StatusCode, res.Header.Get("Content-Encoding"))
		}
		if cc := res.Header.Get("Cache-Control"); cc == "" || cc == "no-store" {
			t.Errorf("GET %s: Cache-Control %q, want one that lets the browser keep it", u, cc)
		}
		return string(b), len(b)
	}
	var w weight
	var files []string
	_, n := fetch(url)
	w.total += n
	files = append(files, fmt.Sprintf("index %d", n))
	page := plainPage(t, url)
	for _, m := range regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`).FindAllStringSubmatch(page, -1) {
		_, n := fetch(strings.TrimSuffix(url, "/") + m[1])
		w.total += n
		files = append(files, fmt.Sprintf("%s %d", m[1], n))
	}
	w.files = strings.Join(files, ", ")
	return w
}

// plainPage fetches the page without compression.
func plainPage(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}
