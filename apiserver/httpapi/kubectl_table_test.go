package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TestKubectlGetBuiltinColumns: kubectl get prints the columns
// kube-apiserver's printers give the built-in kinds: leases NAME HOLDER
// AGE, namespaces NAME STATUS AGE.
func TestKubectlGetBuiltinColumns(t *testing.T) {
	s := apiservertest.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(builtin.NamespaceKind()); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	// The objects are stamped by the server's own clock, to the second,
	// after now is read: 30 s more keeps every age within 60m0s..60m59s,
	// which kubectl prints as 60m, whichever second the creates fall in.
	now := time.Now().Add(time.Hour + 30*time.Second)
	k := newKubectl(t, serve(t, srv, httpapi.WithClock(func() time.Time { return now })).URL)
	ctx := context.Background()
	if _, err := client.New[*builtin.Namespace](srv).Create(ctx, builtin.NewNamespace("default"), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	holder := "chef-1"
	for _, l := range []*builtin.Lease{
		{ObjectMeta: meta.ObjectMeta{Namespace: "default", Name: "kitchen"}, Spec: builtin.LeaseSpec{HolderIdentity: &holder}},
		{ObjectMeta: meta.ObjectMeta{Namespace: "default", Name: "vacant"}},
	} {
		if _, err := client.New[*builtin.Lease](srv).Create(ctx, l, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	k.must("NAME      HOLDER   AGE\nkitchen   chef-1   60m\nvacant             60m\n", "get", "leases")
	k.must("NAME      STATUS   AGE\ndefault   Active   60m\n", "get", "namespaces")
}

// TestKubectlGetSortBy: kubectl get --sort-by asks for Tables whose rows
// carry the whole objects (includeObject=Object) and sorts by a field of
// them; with only metadata in the rows it would find no value to sort by
// and print "No resources found".
func TestKubectlGetSortBy(t *testing.T) {
	s := apiservertest.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(s, apiserver.Options{})
	now := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	k := newKubectl(t, serve(t, srv, httpapi.WithClock(func() time.Time { return now })).URL)
	ctx := context.Background()
	for _, w := range []struct{ name, color string }{{"w1", "red"}, {"w2", "blue"}, {"w3", "green"}} {
		obj := apiservertest.NewWidget("default", w.name)
		obj.Spec.Color = w.color
		if _, err := client.New[*apiservertest.Widget](srv).Create(ctx, obj, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	k.must("w2\nw3\nw1\n", "get", "widgets", "--sort-by=.spec.color", "--no-headers", "-o", "custom-columns=NAME:.metadata.name")
	out, errOut, ok := k.run("get", "widgets", "--sort-by=.spec.color", "--no-headers")
	if !ok || len(out) < 2 || out[:2] != "w2" {
		t.Errorf("kubectl get widgets --sort-by=.spec.color: %q, stderr %q; want w2 (blue) first", out, errOut)
	}

	for i, e := range []struct {
		name string
		ago  time.Duration
	}{{"late", 10 * time.Minute}, {"early", time.Hour}, {"middle", 30 * time.Minute}} {
		ts := meta.NewTime(now.Add(-e.ago))
		ev := &builtin.Event{ObjectMeta: meta.ObjectMeta{Namespace: "default", Name: e.name},
			InvolvedObject: builtin.ObjectReference{Kind: "Widget", Namespace: "default", Name: "w1"},
			Reason:         "Painted", Message: e.name, Type: "Normal", Count: int32(i + 1), FirstTimestamp: ts, LastTimestamp: ts}
		if _, err := client.New[*builtin.Event](srv).Create(ctx, ev, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	k.must("LAST SEEN   TYPE     REASON    OBJECT      MESSAGE\n"+
		"60m         Normal   Painted   widget/w1   early\n"+
		"30m         Normal   Painted   widget/w1   middle\n"+
		"10m         Normal   Painted   widget/w1   late\n", "get", "events", "--sort-by=.lastTimestamp")
}

// TestTableIncludeObject: a Table's rows carry what includeObject asks
// for: the metadata (the default, or Metadata), the whole object
// (Object), or nothing (None); any other value is 400, in
// kube-apiserver's words.
func TestTableIncludeObject(t *testing.T) {
	ts := serve(t, seeded(t, apiserver.Options{}))
	rowObject := func(query string) (int, any) {
		r := do(t, ts, "GET", w1Path+query, "", "Accept", tableAccept)
		if r.Code != 200 {
			return r.Code, r.Body
		}
		return r.Code, r.Body.(map[string]any)["rows"].([]any)[0].(map[string]any)["object"]
	}
	for _, tc := range []struct {
		query string
		code  int
		want  string
	}{
		{"", 200, w1Meta},
		{"?includeObject=Metadata", 200, w1Meta},
		{"?includeObject=Object", 200, w1JSON},
		{"?includeObject=None", 200, `null`},
		{"?includeObject=All", 400, `{"apiVersion":"v1","kind":"Status","status":"Failure","message":"Unable to convert to Table as requested: ` +
			`includeObject: Invalid value: \"All\": must be 'Metadata', 'Object', 'None', or empty","reason":"BadRequest","code":400}`},
	} {
		code, got := rowObject(tc.query)
		if diff := cmp.Diff(decode(t, tc.want), got); diff != "" || code != tc.code {
			t.Errorf("%q: code %d (want %d), row object (-want +got):\n%s", tc.query, code, tc.code, diff)
		}
	}
}
