package apiserver_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func BenchmarkCreate(b *testing.B) {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "")
	w.Labels = map[string]string{"app": "bench"}
	w.Spec = apiservertest.WidgetSpec{Color: "red", Size: 3, Tags: []string{"a", "b"}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		w.Name = fmt.Sprintf("w-%d", i)
		i++
		if _, err := widgets.Create(ctx, w, meta.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
}

func BenchmarkUpdate(b *testing.B) {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "w")
	w.Spec = apiservertest.WidgetSpec{Color: "red", Tags: []string{"a", "b"}}
	w, err := widgets.Create(ctx, w, meta.CreateOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Spec.Size++
		if w, err = widgets.Update(ctx, w, meta.UpdateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
}

// BenchmarkWatchFanOut compares the server's fan-out with the same
// fan-out over bare buffered channels, in one run: compare the two rows'
// events/s. The compare module's side-by-side table runs the same pair.
func BenchmarkWatchFanOut(b *testing.B) {
	for _, watchers := range []int{100, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", watchers), func(b *testing.B) {
			b.Run("kitchensync", func(b *testing.B) { apiservertest.BenchmarkFanOut(b, watchers) })
			b.Run("bare-channels", func(b *testing.B) { apiservertest.BenchmarkBareFanOut(b, watchers) })
		})
	}
}

// BenchmarkWrites is the write path with one watch draining it (see
// [apiservertest.BenchmarkWrites]); compare cpu-ns/op.
func BenchmarkWrites(b *testing.B) {
	for _, w := range []apiservertest.Write{apiservertest.WriteCreate, apiservertest.WriteUpdate, apiservertest.WriteMergePatch} {
		b.Run(string(w), func(b *testing.B) { apiservertest.BenchmarkWrites(b, w) })
	}
}

func BenchmarkDurableCreates(b *testing.B) {
	for _, writers := range []int{1, 4, 16} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) { apiservertest.BenchmarkDurableCreates(b, writers) })
	}
}
