package jsonenc_test

import (
	"maps"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// ShareAnnotations makes long values that the JSON holds as they are read
// from it, in the map itself, and leaves the others (short, escaped)
// their own bytes.
func TestShareAnnotations(t *testing.T) {
	long := strings.Repeat("x", 100)
	w := apiservertest.NewWidget("ns", "w")
	w.Annotations = map[string]string{"long": long, "short": "s", "html": "<" + long, "quote": `"` + long, "k<": long}
	want := maps.Clone(w.Annotations)
	content, err := jsonenc.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	if got := jsonenc.ShareAnnotations(w.Annotations, content); got != 1 {
		t.Errorf("shared %d values, want 1", got)
	}
	if diff := cmp.Diff(want, w.Annotations); diff != "" {
		t.Fatalf("values changed (-was +shared):\n%s", diff)
	}
	inContent := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(&content[0]))
		return p >= start && p+uintptr(len(s)) <= start+uintptr(len(content))
	}
	for key, want := range map[string]bool{"long": true, "short": false, "html": false, "quote": false, "k<": false} {
		if got := inContent(w.Annotations[key]); got != want {
			t.Errorf("%q read from the JSON: %v, want %v", key, got, want)
		}
	}
	if got := testing.AllocsPerRun(10, func() { jsonenc.ShareAnnotations(w.Annotations, content) }); got != 0 {
		t.Errorf("ShareAnnotations allocates %v times, want 0", got)
	}
	w.Annotations = map[string]string{"short": "s"}
	content, _ = jsonenc.Marshal(w)
	if got := jsonenc.ShareAnnotations(w.Annotations, content); got != 0 {
		t.Errorf("nothing long to share: shared %d", got)
	}
}
