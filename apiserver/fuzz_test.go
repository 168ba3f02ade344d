package apiserver_test

// Native fuzz targets. CI (.ci/run) runs each for a few seconds; for a
// longer local run, one target at a time:
//
//	go test -run '^$' -fuzz FuzzSelectors -fuzztime 10m ./apiserver/
//	go test -run '^$' -fuzz FuzzPatch -fuzztime 10m ./apiserver/

import (
	"context"
	"errors"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// FuzzSelectors parses label and field selectors: no panic, and a
// selector that parses prints as one that parses again.
func FuzzSelectors(f *testing.F) {
	for _, s := range []string{"", "a=b", "a in (x,y),!b", "a notin (x)", "x.io/k!=v,k", "metadata.name=t1,spec.color!=red", "a==b", "(", "a in (", "a=b=c", "!", "x/y/z=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if sel, err := meta.ParseLabelSelector(s); err == nil {
			if _, err := meta.ParseLabelSelector(sel.String()); err != nil {
				t.Errorf("label selector %q prints as %q, which does not parse: %v", s, sel.String(), err)
			}
			sel.Matches(map[string]string{"a": "b", "x.io/k": "v"})
		}
		if sel, err := meta.ParseFieldSelector(s); err == nil {
			if _, err := meta.ParseFieldSelector(sel.String()); err != nil {
				t.Errorf("field selector %q prints as %q, which does not parse: %v", s, sel.String(), err)
			}
		}
	})
}

// FuzzPatch applies merge and JSON patches to a stored widget: no panic,
// and every failure is a Kubernetes status error below 500.
func FuzzPatch(f *testing.F) {
	for _, p := range []string{`{"spec":{"size":5}}`, `{"metadata":{"labels":{"a":null}}}`, `null`, `[]`, `{"kind":"Gadget"}`,
		`[{"op":"replace","path":"/spec/size","value":5}]`, `[{"op":"remove","path":"/metadata"}]`, `[{"op":"copy","from":"/spec","path":"/status"}]`, `[{"op":"test","path":"/spec/color","value":"red"}]`} {
		f.Add(p, true)
		f.Add(p, false)
	}
	srv := apiservertest.NewServerWithOptions(f, apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	w := apiservertest.NewWidget("ns", "w")
	w.Spec.Color = "red"
	if _, err := widgets.Create(context.Background(), w, meta.CreateOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, patch string, merge bool) {
		pt := meta.JSONPatchType
		if merge {
			pt = meta.MergePatchType
		}
		_, err := widgets.Patch(context.Background(), "w", pt, []byte(patch), meta.PatchOptions{DryRun: true})
		var se *meta.StatusError
		if err != nil && (!errors.As(err, &se) || se.Status().Code >= 500) {
			t.Errorf("Patch(%s, %q) = %v, want success or a status error below 500", pt, patch, err)
		}
	})
}
