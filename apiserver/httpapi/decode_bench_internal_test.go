package httpapi

import (
	"runtime"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
)

// BenchmarkDecodeObject decodes a create's body as a create or an
// update does (the kind found, the body decoded generically for unknown
// fields, then into the kind): BenchmarkRequestsOverHTTP's widget.
// cpu-ns/op is the benchmark thread's own CPU time.
func BenchmarkDecodeObject(b *testing.B) {
	body := []byte(`{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"c-1","labels":{"set":"c"}},"spec":{"color":"red"}}`)
	info := apiservertest.WidgetKind()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	cpu := apiservertest.ThreadCPU()
	for b.Loop() {
		if _, _, err := decodeObject(info, body, validationWarn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(apiservertest.ThreadCPU()-cpu)/float64(b.N), "cpu-ns/op")
}
