package jsonenc_test

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// ShareAnnotations makes long values that the JSON holds as they are read
// from it, and leaves the others (short, escaped) their own bytes.
func TestShareAnnotations(t *testing.T) {
	long := strings.Repeat("x", 100)
	w := apiservertest.NewWidget("ns", "w")
	w.Annotations = map[string]string{"long": long, "short": "s", "html": "<" + long, "quote": `"` + long, "k<": long}
	content, err := jsonenc.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	shared := jsonenc.ShareAnnotations(w.Annotations, content)
	if diff := cmp.Diff(w.Annotations, shared); diff != "" {
		t.Fatalf("values changed (-was +shared):\n%s", diff)
	}
	inContent := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(&content[0]))
		return p >= start && p+uintptr(len(s)) <= start+uintptr(len(content))
	}
	for key, want := range map[string]bool{"long": true, "short": false, "html": false, "quote": false, "k<": false} {
		if got := inContent(shared[key]); got != want {
			t.Errorf("%q read from the JSON: %v, want %v", key, got, want)
		}
	}
	if inContent(w.Annotations["long"]) {
		t.Error("the object's own map was changed")
	}
	w.Annotations = map[string]string{"short": "s"}
	content, _ = jsonenc.Marshal(w)
	if got := jsonenc.ShareAnnotations(w.Annotations, content); got != nil {
		t.Errorf("nothing long to share: got %v, want nil", got)
	}
}
