package apiserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// badNames are names and namespaces no write may store.
var badNames = []string{"..", "Bad_NS", "a/b", "\x1b[31mred", "-a", "a.", "a b", strings.Repeat("a", 254)}

// writeVerb is one way to write an object name in namespace ns, which
// may create it.
type writeVerb struct {
	name string
	do   func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error
}

var writeVerbs = []writeVerb{
	{"create", func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		_, err := srv.Resource(gvr).Namespace(ns).Create(ctx, objectOf(gvr, ns, name), meta.CreateOptions{})
		return err
	}},
	{"update", func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		obj := objectOf(gvr, ns, name)
		obj.GetObjectMeta().ResourceVersion = "1"
		_, err := srv.Resource(gvr).Namespace(ns).Update(ctx, obj, meta.UpdateOptions{})
		return err
	}},
	{"merge patch", func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		_, err := srv.Resource(gvr).Namespace(ns).Patch(ctx, name, meta.MergePatchType, []byte(`{"metadata":{"labels":{"a":"b"}}}`), meta.PatchOptions{})
		return err
	}},
	{"apply", func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		info, _ := srv.Scheme().KindForResource(gvr)
		body := `{"apiVersion":"` + info.GroupVersionKind().GroupVersion().String() + `","kind":"` + info.Kind + `","metadata":{"name":` + quoteJSON(name) + `}}`
		_, err := srv.Resource(gvr).Namespace(ns).Patch(ctx, name, meta.ApplyPatchType, []byte(body), meta.PatchOptions{FieldManager: "m"})
		return err
	}},
}

func objectOf(gvr meta.GroupVersionResource, ns, name string) meta.Object {
	if gvr == builtin.LeasesResource {
		l := &builtin.Lease{}
		l.Namespace, l.Name = ns, name
		return l
	}
	return apiservertest.NewWidget(ns, name)
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r < 0x20:
			b.WriteString(`\u00` + "0123456789abcdef"[r>>4:r>>4+1] + "0123456789abcdef"[r&15:r&15+1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String() + `"`
}

// Every write that can create an object (create, apply, an update of a
// kind that creates on update) checks the name and the namespace on one
// path: a bad one is 422 naming the field (or, where namespaces are
// served, 404 for a namespace that cannot exist, as kube-apiserver's
// NamespaceLifecycle answers); a write that cannot create answers 404 for
// what is not there. Nothing is ever stored.
func TestEveryWriteChecksNamesAlike(t *testing.T) {
	for _, served := range []bool{false, true} {
		scheme := apiservertest.NewScheme()
		if err := builtin.Register(scheme); err != nil {
			t.Fatal(err)
		}
		if served {
			scheme.Register(builtin.NamespaceKind())
		}
		srv := apiserver.NewServer(scheme, apiserver.Options{})
		ctx := context.Background()
		for _, gvr := range []meta.GroupVersionResource{apiservertest.WidgetsResource, builtin.LeasesResource} {
			for _, bad := range badNames {
				for _, v := range writeVerbs {
					checkBadWrite(t, srv, served, gvr, v, "ns", bad, "metadata.name")
					checkBadWrite(t, srv, served, gvr, v, bad, "good", "metadata.namespace")
				}
			}
			if list, err := srv.Resource(gvr).List(ctx, meta.ListOptions{}); err != nil || len(list.Items) > 0 {
				t.Errorf("namespaces served %t: %s stored %d objects (%v)", served, gvr.Resource, len(list.Items), err)
			}
		}
	}
}

// checkBadWrite does one write with a bad name or namespace (field names
// which) and checks the answer.
func checkBadWrite(t *testing.T, srv *apiserver.Server, served bool, gvr meta.GroupVersionResource, v writeVerb, ns, name, field string) {
	t.Helper()
	err := v.do(context.Background(), srv, gvr, ns, name)
	creates := v.name == "create" || v.name == "apply" || (v.name == "update" && gvr == builtin.LeasesResource)
	ok := false
	switch {
	case err == nil:
	case !creates:
		ok = meta.IsNotFound(err) || meta.IsInvalid(err)
	case meta.IsInvalid(err):
		ok = strings.Contains(err.Error(), field) || field == "metadata.namespace" // a namespace refused by the name's rules too
	case served && meta.IsNotFound(err):
		ok = strings.Contains(err.Error(), `namespaces "`) // the namespace does not exist (ns "ns" does not either)
	}
	if !ok {
		t.Errorf("namespaces served %t: %s of %s %q in namespace %q: %v, want it refused naming %s",
			served, v.name, gvr.Resource, name, ns, err, field)
	}
}
