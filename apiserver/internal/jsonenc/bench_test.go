package jsonenc_test

import (
	"encoding/json"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// BenchmarkWidget encodes a Widget as the server stores one, with
// encoding/json and with jsonenc, in one run. cpu-ns/op is the
// benchmark thread's own CPU time, which a loaded machine changes less
// than wall time.
func BenchmarkWidget(b *testing.B) {
	w := apiservertest.NewWidget("ns", "w-12345")
	w.UID = "bcfd9a24-7547-4c7e-8d72-bece97a6ae29"
	w.Generation = 1
	w.CreationTimestamp = meta.NewTime(time.Now())
	w.Labels = map[string]string{"app": "bench", "tier": "backend"}
	w.Spec = apiservertest.WidgetSpec{Color: "red", Size: 3, Tags: []string{"a", "b"}}
	for _, enc := range []struct {
		name    string
		marshal func(any) ([]byte, error)
	}{{"encoding-json", json.Marshal}, {"jsonenc", jsonenc.Marshal}} {
		b.Run(enc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			cpu := apiservertest.ThreadCPU()
			for b.Loop() {
				if _, err := enc.marshal(w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(apiservertest.ThreadCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkUnmarshal decodes stored objects (an Order with its status,
// a Cook, a Lease) into new values with encoding/json and with jsonenc,
// in one run, as a restart, a patch and a create's body do.
func BenchmarkUnmarshal(b *testing.B) {
	for _, o := range storedObjects[:4] {
		typ := targets[o.target]
		data := []byte(o.json)
		for _, dec := range []struct {
			name      string
			unmarshal func([]byte, any) error
		}{{"encoding-json", json.Unmarshal}, {"jsonenc", jsonenc.Unmarshal}} {
			b.Run(typ.Name()+"/"+dec.name, func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ReportAllocs()
				cpu := apiservertest.ThreadCPU()
				for b.Loop() {
					if err := dec.unmarshal(data, reflect.New(typ).Interface()); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(apiservertest.ThreadCPU()-cpu)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
