package rest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
)

type widget = apiservertest.Widget

// newClient serves srv through httpapi over the in-memory network and
// returns a client for it, with cfg's manners (Host and Dial are set).
func newClient(t *testing.T, srv *apiserver.Server, cfg rest.Config) *rest.Client {
	t.Helper()
	ts := resttest.NewServer(t, httpapi.NewHandler(srv))
	cfg.Host, cfg.Dial = ts.Config.Host, ts.Config.Dial
	c, err := rest.New(&cfg, srv.Scheme())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// resource is what both lanes offer: an [apiserver.ResourceClient] in
// process, a [rest.ResourceClient] over HTTP.
type resource interface {
	Get(context.Context, string, meta.GetOptions) (meta.Object, error)
	Create(context.Context, meta.Object, meta.CreateOptions) (meta.Object, error)
	Update(context.Context, meta.Object, meta.UpdateOptions) (meta.Object, error)
	UpdateStatus(context.Context, meta.Object, meta.UpdateOptions) (meta.Object, error)
	Patch(context.Context, string, meta.PatchType, []byte, meta.PatchOptions, ...string) (meta.Object, error)
	Delete(context.Context, string, meta.DeleteOptions) error
	List(context.Context, meta.ListOptions) (*meta.List, error)
	Watch(context.Context, meta.ListOptions) (meta.WatchInterface, error)
}

// lane is one way to reach a server: widgets and gadgets in namespace ns.
type lane struct {
	widgets, gadgets func(ns string) resource
}

// result is what one step returned.
type result struct {
	Obj  meta.Object
	List *meta.List
	Err  *meta.Status
}

func record(obj meta.Object, err error) result {
	return result{Obj: obj, Err: statusOf(err)}
}

func recordList(list *meta.List, err error) result {
	return result{List: list, Err: statusOf(err)}
}

func statusOf(err error) *meta.Status {
	if err == nil {
		return nil
	}
	var se *meta.StatusError
	if !errors.As(err, &se) {
		return &meta.Status{Message: "not a StatusError: " + err.Error()}
	}
	return se.Status()
}

func ptr[T any](v T) *T { return &v }

// steps are the calls both lanes make, in order; each returns its result.
var steps = []struct {
	name string
	do   func(ctx context.Context, l lane) result
}{
	{"create", func(ctx context.Context, l lane) result {
		w := apiservertest.NewWidget("a", "w1")
		w.Labels = map[string]string{"color": "red"}
		return record(l.widgets("").Create(ctx, w, meta.CreateOptions{}))
	}},
	{"create again: AlreadyExists", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("a", "w1"), meta.CreateOptions{}))
	}},
	{"create w2 in the client's namespace", func(ctx context.Context, l lane) result {
		return record(l.widgets("b").Create(ctx, apiservertest.NewWidget("", "w2"), meta.CreateOptions{}))
	}},
	{"create without a namespace: Invalid", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("", "w3"), meta.CreateOptions{}))
	}},
	{"get without a namespace: BadRequest", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Get(ctx, "w2", meta.GetOptions{}))
	}},
	{"create with a bad name: Invalid", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("a", "Bad_Name"), meta.CreateOptions{}))
	}},
	{"create dry run", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("a", "dry"), meta.CreateOptions{DryRun: true}))
	}},
	{"get", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Get(ctx, "w1", meta.GetOptions{}))
	}},
	{"get missing: NotFound", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Get(ctx, "dry", meta.GetOptions{}))
	}},
	{"update with a stale resourceVersion: Conflict", func(ctx context.Context, l lane) result {
		w := apiservertest.NewWidget("a", "w1")
		w.ResourceVersion = "1"
		return record(l.widgets("").Update(ctx, w, meta.UpdateOptions{}))
	}},
	{"update", func(ctx context.Context, l lane) result {
		got, _ := l.widgets("a").Get(ctx, "w1", meta.GetOptions{})
		got.(*widget).Spec.Size = 3
		return record(l.widgets("").Update(ctx, got, meta.UpdateOptions{}))
	}},
	{"update status", func(ctx context.Context, l lane) result {
		got, _ := l.widgets("a").Get(ctx, "w1", meta.GetOptions{})
		got.(*widget).Status.Phase = "Ready"
		return record(l.widgets("").UpdateStatus(ctx, got, meta.UpdateOptions{}))
	}},
	{"merge patch", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", meta.MergePatchType, []byte(`{"spec":{"color":"blue"}}`), meta.PatchOptions{}))
	}},
	{"json patch", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", meta.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/size","value":5}]`), meta.PatchOptions{}))
	}},
	{"patch the status", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", meta.MergePatchType, []byte(`{"status":{"phase":"Done"}}`), meta.PatchOptions{}, "status"))
	}},
	{"patch that changes the kind: BadRequest", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", meta.MergePatchType, []byte(`{"kind":"Gadget"}`), meta.PatchOptions{}))
	}},
	{"delete with a bad propagation policy: Invalid", func(ctx context.Context, l lane) result {
		bad := meta.DeletionPropagation("Sideways")
		return record(nil, l.widgets("a").Delete(ctx, "w1", meta.DeleteOptions{PropagationPolicy: &bad}))
	}},
	{"list by label", func(ctx context.Context, l lane) result {
		return recordList(l.widgets("").List(ctx, meta.ListOptions{LabelSelector: "color=red"}))
	}},
	{"list with a bad selector: BadRequest", func(ctx context.Context, l lane) result {
		return recordList(l.widgets("").List(ctx, meta.ListOptions{LabelSelector: "color in red"}))
	}},
	{"delete with a stale precondition: Conflict", func(ctx context.Context, l lane) result {
		return record(nil, l.widgets("a").Delete(ctx, "w1", meta.DeleteOptions{Preconditions: &meta.Preconditions{ResourceVersion: ptr("1")}}))
	}},
	{"delete", func(ctx context.Context, l lane) result {
		return record(nil, l.widgets("a").Delete(ctx, "w1", meta.DeleteOptions{}))
	}},
	{"delete again: NotFound", func(ctx context.Context, l lane) result {
		return record(nil, l.widgets("a").Delete(ctx, "w1", meta.DeleteOptions{}))
	}},
	{"create a cluster-scoped gadget", func(ctx context.Context, l lane) result {
		g := &apiservertest.Gadget{ObjectMeta: meta.ObjectMeta{Name: "g1"}}
		return record(l.gadgets("").Create(ctx, g, meta.CreateOptions{}))
	}},
	{"get the gadget", func(ctx context.Context, l lane) result {
		return record(l.gadgets("").Get(ctx, "g1", meta.GetOptions{}))
	}},
}

// TestSameAsInProcess makes the same calls on two servers, one in process
// and one over HTTP, and expects the same answers: objects, lists and
// errors (code, reason, message, details), with only uids differing.
func TestSameAsInProcess(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		local := apiservertest.NewServer(t)
		remote := apiservertest.NewServer(t)
		c := newClient(t, remote, rest.Config{QPS: -1})
		lanes := []lane{
			{
				widgets: func(ns string) resource { return local.Resource(apiservertest.WidgetsResource).Namespace(ns) },
				gadgets: func(ns string) resource { return local.Resource(apiservertest.GadgetsResource).Namespace(ns) },
			},
			{
				widgets: func(ns string) resource { return c.Resource(apiservertest.WidgetsResource).Namespace(ns) },
				gadgets: func(ns string) resource { return c.Resource(apiservertest.GadgetsResource).Namespace(ns) },
			},
		}
		// Over HTTP the server names the client's user agent as field
		// manager, so those objects carry managedFields.
		ignoreUID := cmpopts.IgnoreFields(meta.ObjectMeta{}, "UID", "ManagedFields")
		for _, step := range steps {
			want := step.do(t.Context(), lanes[0])
			got := step.do(t.Context(), lanes[1])
			_, reason, _ := strings.Cut(step.name, ": ")
			if wantReason := meta.StatusReason(reason); got.Err == nil && reason != "" || got.Err != nil && got.Err.Reason != wantReason {
				t.Errorf("%s: got error %+v, want reason %q", step.name, got.Err, wantReason)
			}
			if diff := cmp.Diff(want, got, ignoreUID); diff != "" {
				t.Errorf("%s: over HTTP differs (-in process +HTTP):\n%s", step.name, diff)
			}
		}
	})
}

// newRawServer serves h over the in-memory network and returns a config
// that reaches it, without rate limits.
func newRawServer(t *testing.T, h http.Handler) rest.Config {
	ts := resttest.NewServer(t, h)
	cfg := ts.Config
	cfg.QPS = -1
	return cfg
}

// TestDeleteObject checks what a delete answers over HTTP: the object,
// marked, while a finalizer holds it; gone (nil) once it is deleted.
func TestDeleteObject(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServer(t)
		widgets := newClient(t, srv, rest.Config{}).Resource(apiservertest.WidgetsResource).Namespace("a")
		w := apiservertest.NewWidget("a", "held")
		w.Finalizers = []string{"example.com/cleanup"}
		if _, err := widgets.Create(t.Context(), w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, gone, err := widgets.DeleteObject(t.Context(), "held", meta.DeleteOptions{})
		if err != nil || gone || obj == nil || obj.GetObjectMeta().DeletionTimestamp == nil {
			t.Fatalf("DeleteObject with a finalizer = %v, gone %t, %v; want the object, marked", obj, gone, err)
		}
		if _, err := widgets.Patch(t.Context(), "held", meta.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), meta.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := widgets.Create(t.Context(), apiservertest.NewWidget("a", "free"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, gone, err = widgets.DeleteObject(t.Context(), "free", meta.DeleteOptions{})
		if err != nil || !gone || obj != nil {
			t.Errorf("DeleteObject = %v, gone %t, %v; want nil, gone", obj, gone, err)
		}
	})
}

// TestDeleteObjectNamespace: deleting a namespace answers it,
// Terminating, and not gone, though no metadata.finalizers hold it;
// Finalize over HTTP lets it go.
func TestDeleteObjectNamespace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := apiservertest.NewServerWithOptions(t, apiserver.Options{DisableNamespaceController: true})
		if err := srv.Scheme().Register(builtin.NamespaceKind()); err != nil {
			t.Fatal(err)
		}
		nsc := newClient(t, srv, rest.Config{}).Resource(namespaces.Resource)
		if _, err := nsc.Create(t.Context(), builtin.NewNamespace("team"), meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, gone, err := nsc.DeleteObject(t.Context(), "team", meta.DeleteOptions{})
		ns, _ := obj.(*builtin.Namespace)
		if err != nil || gone || ns == nil || ns.Status.Phase != namespaces.NamespaceTerminating {
			t.Fatalf("DeleteObject of a namespace = %v, gone %t, %v; want it Terminating, not gone", obj, gone, err)
		}
		ns.Spec.Finalizers = nil
		if _, err := nsc.Finalize(t.Context(), ns, meta.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := nsc.Get(t.Context(), "team", meta.GetOptions{}); !meta.IsNotFound(err) {
			t.Errorf("namespace after Finalize: %v, want 404", err)
		}
	})
}
