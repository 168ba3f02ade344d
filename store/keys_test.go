package store

import (
	"errors"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func TestMetaNamespaceKeyFunc(t *testing.T) {
	tests := []struct {
		name    string
		obj     meta.Object
		want    string
		wantErr bool
	}{
		{"namespaced", newWidget("a", "w", ""), "a/w", false},
		{"cluster-scoped", newWidget("", "w", ""), "w", false},
		{"untyped nil", nil, "", true},
		{"typed nil", (*widget)(nil), "", true},
		{"no name", newWidget("a", "", ""), "", true},
	}
	for _, tt := range tests {
		got, err := MetaNamespaceKeyFunc(tt.obj)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("%s: got %q, %v; want %q, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestSplitMetaNamespaceKey(t *testing.T) {
	tests := []struct {
		key, ns, name string
		wantErr       bool
	}{
		{"a/b", "a", "b", false},
		{"b", "", "b", false},
		{"", "", "", true},
		{"a/", "", "", true},
		{"/b", "", "", true},
		{"a/b/c", "", "", true},
	}
	for _, tt := range tests {
		ns, name, err := SplitMetaNamespaceKey(tt.key)
		if ns != tt.ns || name != tt.name || (err != nil) != tt.wantErr {
			t.Errorf("SplitMetaNamespaceKey(%q) = %q, %q, %v; want %q, %q, error %v", tt.key, ns, name, err, tt.ns, tt.name, tt.wantErr)
		}
		var ike *InvalidKeyError
		if tt.wantErr && !errors.As(err, &ike) {
			t.Errorf("SplitMetaNamespaceKey(%q): err %v is not an *InvalidKeyError", tt.key, err)
		}
	}
	if _, err := MetaNamespaceIndexFunc[*widget](nil); err == nil {
		t.Errorf("MetaNamespaceIndexFunc(nil) succeeded")
	}
}
