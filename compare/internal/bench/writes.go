package bench

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	cgtesting "k8s.io/client-go/testing"

	"github.com/kitchensync/kitchensync/compare/internal/adapt"
)

// The write workloads: b.N creates, updates or merge patches of Widgets,
// one at a time, while one watch receives every event, and cpu-ns/op, the
// process's CPU time per write (writer, watch and garbage collector).
// kitchensync's side is its apiserver (apiservertest.BenchmarkWrites);
// client-go's is its fake clientset's object tracker
// (k8s.io/client-go/testing: what a test built on fake.NewClientset
// writes through, reaction and all, without recording each action), the
// in-memory store people test controllers against instead of a server.
// The tracker validates nothing, keeps no history and encodes nothing
// but for a patch, and its watch panics when its channel (100 events)
// is full, so its writer waits while the channel is three quarters full.

func writesKS(w apiservertest.Write) func(*testing.B) {
	return func(b *testing.B) { apiservertest.BenchmarkWrites(b, w) }
}

var widgetsGVR = adapt.WidgetGVK.GroupVersion().WithResource("widgets")

// newTracker returns a fake clientset's tracker that knows Widgets, and
// the reaction a fake clientset runs on it.
func newTracker(b *testing.B) (cgtesting.ObjectTracker, cgtesting.ReactionFunc) {
	scheme := runtime.NewScheme()
	scheme.AddKnownTypeWithName(adapt.WidgetGVK, &adapt.Widget{})
	scheme.AddKnownTypeWithName(adapt.WidgetGVK.GroupVersion().WithKind("WidgetList"), &adapt.WidgetList{})
	metav1.AddToGroupVersion(scheme, adapt.WidgetGVK.GroupVersion())
	tracker := cgtesting.NewObjectTracker(scheme, serializer.NewCodecFactory(scheme).UniversalDecoder())
	return tracker, cgtesting.ObjectReaction(tracker)
}

func writesCG(write apiservertest.Write) func(*testing.B) {
	return func(b *testing.B) {
		tracker, react := newTracker(b)
		w := &adapt.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Labels: map[string]string{"app": "bench"}}}
		w.APIVersion, w.Kind = adapt.WidgetGVK.GroupVersion().String(), adapt.WidgetGVK.Kind
		w.Spec = apiservertest.WidgetSpec{Color: "red", Size: 3, Tags: []string{"a", "b"}}
		if write != apiservertest.WriteCreate {
			if _, _, err := react(cgtesting.NewCreateAction(widgetsGVR, "ns", w)); err != nil {
				b.Fatal(err)
			}
		}
		wi, err := tracker.Watch(widgetsGVR, "ns")
		if err != nil {
			b.Fatal(err)
		}
		var done sync.WaitGroup
		done.Go(func() {
			for n := 0; n < b.N; n++ {
				<-wi.ResultChan()
			}
		})
		b.ReportAllocs()
		b.ResetTimer()
		cpu := ProcessCPU()
		for i := range b.N {
			waitForRoom(wi)
			if err := writeCG(react, write, w, i); err != nil {
				b.Fatal(err)
			}
		}
		done.Wait()
		b.StopTimer()
		b.ReportMetric(float64(ProcessCPU()-cpu)/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "objects/s")
		wi.Stop()
	}
}

// writeCG makes the i-th write through the fake clientset's reaction.
func writeCG(react cgtesting.ReactionFunc, write apiservertest.Write, w *adapt.Widget, i int) error {
	var err error
	switch write {
	case apiservertest.WriteCreate:
		w.Name = "w-" + strconv.Itoa(i)
		_, _, err = react(cgtesting.NewCreateAction(widgetsGVR, "ns", w))
	case apiservertest.WriteUpdate:
		w.Spec.Size++
		_, _, err = react(cgtesting.NewUpdateAction(widgetsGVR, "ns", w))
	case apiservertest.WriteMergePatch:
		patch := `{"spec":{"size":` + strconv.Itoa(i) + `}}`
		_, _, err = react(cgtesting.NewPatchAction(widgetsGVR, "ns", "w", types.MergePatchType, []byte(patch)))
	}
	return err
}

// waitForRoom waits while the tracker's watch channel is three quarters
// full: a full one panics.
func waitForRoom(wi watch.Interface) {
	for len(wi.ResultChan()) > 3*int(watch.DefaultChanSize)/4 {
		time.Sleep(10 * time.Microsecond)
	}
}
