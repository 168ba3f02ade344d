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
	// smp: only for kinds that take a strategic merge patch (Leases).
	smp bool
}

// patchVerb is a patch of type pt with body data (nil: an apply of the
// object name), to the main resource or the status subresource.
func patchVerb(name string, pt meta.PatchType, data string, subresources ...string) writeVerb {
	return writeVerb{name: name, smp: pt == meta.StrategicMergePatchType, do: func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		body := []byte(data)
		if pt == meta.ApplyPatchType {
			body = applyBody(srv, gvr, `{"name":`+quoteJSON(name)+`}`)
		}
		_, err := srv.Resource(gvr).Namespace(ns).Patch(ctx, name, pt, body, meta.PatchOptions{FieldManager: "m"}, subresources...)
		return err
	}}
}

// applyBody is an apply configuration of gvr's kind with the given
// metadata.
func applyBody(srv *apiserver.Server, gvr meta.GroupVersionResource, metadata string) []byte {
	info, _ := srv.Scheme().KindForResource(gvr)
	return []byte(`{"apiVersion":"` + info.GroupVersionKind().GroupVersion().String() + `","kind":"` + info.Kind + `","metadata":` + metadata + `}`)
}

var writeVerbs = []writeVerb{
	{name: "create", do: func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		_, err := srv.Resource(gvr).Namespace(ns).Create(ctx, objectOf(gvr, ns, name), meta.CreateOptions{})
		return err
	}},
	{name: "update", do: func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		obj := objectOf(gvr, ns, name)
		obj.GetObjectMeta().ResourceVersion = "1"
		_, err := srv.Resource(gvr).Namespace(ns).Update(ctx, obj, meta.UpdateOptions{})
		return err
	}},
	{name: "update status", do: func(ctx context.Context, srv *apiserver.Server, gvr meta.GroupVersionResource, ns, name string) error {
		obj := objectOf(gvr, ns, name)
		obj.GetObjectMeta().ResourceVersion = "1"
		_, err := srv.Resource(gvr).Namespace(ns).UpdateStatus(ctx, obj, meta.UpdateOptions{})
		return err
	}},
	patchVerb("merge patch", meta.MergePatchType, `{"metadata":{"labels":{"a":"b"}}}`),
	patchVerb("JSON patch", meta.JSONPatchType, `[{"op":"add","path":"/metadata/labels","value":{"a":"b"}}]`),
	patchVerb("strategic merge patch", meta.StrategicMergePatchType, `{"metadata":{"labels":{"a":"b"}}}`),
	patchVerb("apply", meta.ApplyPatchType, ""),
	patchVerb("status merge patch", meta.MergePatchType, `{"status":{}}`, "status"),
	patchVerb("status JSON patch", meta.JSONPatchType, `[{"op":"add","path":"/status","value":{}}]`, "status"),
	patchVerb("status apply", meta.ApplyPatchType, "", "status"),
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
// NamespaceLifecycle answers). A write that cannot create (an update of
// status; a merge, JSON or strategic merge patch or an apply of status; a
// merge, JSON or strategic merge patch) answers 404 for what is not
// there. Nothing is ever stored.
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
					if v.smp && gvr != builtin.LeasesResource {
						continue // a Widget takes no strategic merge patch (400)
					}
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

// A patch cannot carry a stored object to a bad name or namespace: every
// patch type, to the main resource and to the status subresource, that
// sets metadata.name or metadata.namespace to a bad value is refused (400,
// the object is not the one on the URL, as kube-apiserver words it; or
// 422), and the object stays as it was.
func TestNoPatchRenamesToABadName(t *testing.T) {
	scheme := apiservertest.NewScheme()
	if err := builtin.Register(scheme); err != nil {
		t.Fatal(err)
	}
	srv := apiserver.NewServer(scheme, apiserver.Options{})
	ctx := context.Background()
	for _, gvr := range []meta.GroupVersionResource{apiservertest.WidgetsResource, builtin.LeasesResource} {
		rc := srv.Resource(gvr).Namespace("ns")
		stored, err := rc.Create(ctx, objectOf(gvr, "ns", "good"), meta.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range badNames {
			for _, field := range []string{"name", "namespace"} {
				md := `{` + quoteJSON(field) + `:` + quoteJSON(bad) + `}`
				for _, p := range renames(srv, gvr, field, md, bad) {
					checkRename(t, rc, gvr, p, field, bad)
				}
			}
		}
		got, err := rc.Get(ctx, "good", meta.GetOptions{})
		if err != nil || got.GetObjectMeta().ResourceVersion != stored.GetObjectMeta().ResourceVersion {
			t.Errorf("%s: after the renames, %v (%v); want it as created", gvr.Resource, got, err)
		}
		if list, err := srv.Resource(gvr).List(ctx, meta.ListOptions{}); err != nil || len(list.Items) != 1 {
			t.Errorf("%s: %d objects stored (%v), want the one", gvr.Resource, len(list.Items), err)
		}
	}
}

// rename is a patch of the object "ns/good".
type rename struct {
	pt     meta.PatchType
	data   []byte
	status bool
}

// renames are the patches of gvr's object that set metadata's field to
// bad (metadata is the JSON of that metadata).
func renames(srv *apiserver.Server, gvr meta.GroupVersionResource, field, metadata, bad string) []rename {
	merge := []byte(`{"metadata":` + metadata + `}`)
	json := []byte(`[{"op":"replace","path":"/metadata/` + field + `","value":` + quoteJSON(bad) + `}]`)
	apply := applyBody(srv, gvr, metadata)
	if field == "namespace" {
		apply = applyBody(srv, gvr, `{"name":"good","namespace":`+quoteJSON(bad)+`}`)
	}
	var out []rename
	for _, status := range []bool{false, true} {
		if status && gvr == builtin.LeasesResource {
			continue // a Lease has no status subresource
		}
		out = append(out, rename{meta.MergePatchType, merge, status}, rename{meta.JSONPatchType, json, status}, rename{meta.ApplyPatchType, apply, status})
		if gvr == builtin.LeasesResource {
			out = append(out, rename{meta.StrategicMergePatchType, merge, status})
		}
	}
	return out
}

// checkRename makes the patch p and checks that it is refused.
func checkRename(t *testing.T, rc *apiserver.ResourceClient, gvr meta.GroupVersionResource, p rename, field, bad string) {
	t.Helper()
	var sub []string
	if p.status {
		sub = []string{"status"}
	}
	_, err := rc.Patch(context.Background(), "good", p.pt, p.data, meta.PatchOptions{FieldManager: "m"}, sub...)
	if !meta.IsBadRequest(err) && !meta.IsInvalid(err) {
		t.Errorf("%s of %s ns/good (status %t) setting metadata.%s to %q: %v, want 400 or 422", p.pt, gvr.Resource, p.status, field, bad, err)
	}
}
