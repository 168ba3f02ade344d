package jsonenc_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
)

// AppendWithResourceVersion leaves content that has not the shape of an
// object with ObjectMeta, or a resourceVersion that is not a number, to
// its caller.
func TestAppendWithResourceVersionRefuses(t *testing.T) {
	for _, bad := range []string{`{"kind":"K"}`, `{"apiVersion":"v1","metadata":{"name":1}}`, `{"apiVersion":"v1","metadata":{"name":"a"`} {
		if got, ok := jsonenc.AppendWithResourceVersion(nil, []byte(bad), "7"); ok {
			t.Errorf("%s: %s, want not ok", bad, got)
		}
	}
	if got, ok := jsonenc.AppendWithResourceVersion(nil, []byte(`{"apiVersion":"v1","kind":"K","metadata":{}}`), "x"); ok {
		t.Errorf("a resourceVersion that is no number: %s, want not ok", got)
	}
}
