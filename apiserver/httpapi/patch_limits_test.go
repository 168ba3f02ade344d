package httpapi

import (
	"strings"
	"testing"
)

// A small JSON patch whose copies double the document each time is stopped
// by the copy limit long before it can exhaust memory.
func TestJSONPatchCopiesAreCapped(t *testing.T) {
	ops := strings.Repeat(`{"op":"copy","from":"/a","path":"/a/-"},`, 40)
	patch := "[" + strings.TrimSuffix(ops, ",") + "]"
	apply, err := patchFunc("application/json-patch+json", []byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"a":["` + strings.Repeat("x", 1000) + `"]}`
	out, err := apply([]byte(doc))
	if err == nil {
		t.Fatalf("apply grew the document to %d bytes, want an error from the copy limit", len(out))
	}
}

func TestJSONPatchOperationCountIsCapped(t *testing.T) {
	ops := strings.Repeat(`{"op":"test","path":"/a","value":1},`, maxJSONPatchOperations+1)
	if _, err := patchFunc("application/json-patch+json", []byte("["+strings.TrimSuffix(ops, ",")+"]")); err == nil {
		t.Errorf("a patch of %d operations was accepted, want at most %d", maxJSONPatchOperations+1, maxJSONPatchOperations)
	}
}
