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
	Get(context.Context, string, apiserver.GetOptions) (apiserver.Object, error)
	Create(context.Context, apiserver.Object, apiserver.CreateOptions) (apiserver.Object, error)
	Update(context.Context, apiserver.Object, apiserver.UpdateOptions) (apiserver.Object, error)
	UpdateStatus(context.Context, apiserver.Object, apiserver.UpdateOptions) (apiserver.Object, error)
	Patch(context.Context, string, apiserver.PatchType, []byte, apiserver.PatchOptions, ...string) (apiserver.Object, error)
	Delete(context.Context, string, apiserver.DeleteOptions) error
	List(context.Context, apiserver.ListOptions) (*apiserver.List, error)
	Watch(context.Context, apiserver.ListOptions) (apiserver.WatchInterface, error)
}

// lane is one way to reach a server: widgets and gadgets in namespace ns.
type lane struct {
	widgets, gadgets func(ns string) resource
}

// result is what one step returned.
type result struct {
	Obj  apiserver.Object
	List *apiserver.List
	Err  *apiserver.Status
}

func record(obj apiserver.Object, err error) result {
	return result{Obj: obj, Err: statusOf(err)}
}

func recordList(list *apiserver.List, err error) result {
	return result{List: list, Err: statusOf(err)}
}

func statusOf(err error) *apiserver.Status {
	if err == nil {
		return nil
	}
	var se *apiserver.StatusError
	if !errors.As(err, &se) {
		return &apiserver.Status{Message: "not a StatusError: " + err.Error()}
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
		return record(l.widgets("").Create(ctx, w, apiserver.CreateOptions{}))
	}},
	{"create again: AlreadyExists", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("a", "w1"), apiserver.CreateOptions{}))
	}},
	{"create w2 in the client's namespace", func(ctx context.Context, l lane) result {
		return record(l.widgets("b").Create(ctx, apiservertest.NewWidget("", "w2"), apiserver.CreateOptions{}))
	}},
	{"create without a namespace: Invalid", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("", "w3"), apiserver.CreateOptions{}))
	}},
	{"get without a namespace: BadRequest", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Get(ctx, "w2", apiserver.GetOptions{}))
	}},
	{"create with a bad name: Invalid", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("a", "Bad_Name"), apiserver.CreateOptions{}))
	}},
	{"create dry run", func(ctx context.Context, l lane) result {
		return record(l.widgets("").Create(ctx, apiservertest.NewWidget("a", "dry"), apiserver.CreateOptions{DryRun: true}))
	}},
	{"get", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Get(ctx, "w1", apiserver.GetOptions{}))
	}},
	{"get missing: NotFound", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Get(ctx, "dry", apiserver.GetOptions{}))
	}},
	{"update with a stale resourceVersion: Conflict", func(ctx context.Context, l lane) result {
		w := apiservertest.NewWidget("a", "w1")
		w.ResourceVersion = "1"
		return record(l.widgets("").Update(ctx, w, apiserver.UpdateOptions{}))
	}},
	{"update", func(ctx context.Context, l lane) result {
		got, _ := l.widgets("a").Get(ctx, "w1", apiserver.GetOptions{})
		got.(*widget).Spec.Size = 3
		return record(l.widgets("").Update(ctx, got, apiserver.UpdateOptions{}))
	}},
	{"update status", func(ctx context.Context, l lane) result {
		got, _ := l.widgets("a").Get(ctx, "w1", apiserver.GetOptions{})
		got.(*widget).Status.Phase = "Ready"
		return record(l.widgets("").UpdateStatus(ctx, got, apiserver.UpdateOptions{}))
	}},
	{"merge patch", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", apiserver.MergePatchType, []byte(`{"spec":{"color":"blue"}}`), apiserver.PatchOptions{}))
	}},
	{"json patch", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", apiserver.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/size","value":5}]`), apiserver.PatchOptions{}))
	}},
	{"patch the status", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", apiserver.MergePatchType, []byte(`{"status":{"phase":"Done"}}`), apiserver.PatchOptions{}, "status"))
	}},
	{"patch that changes the kind: BadRequest", func(ctx context.Context, l lane) result {
		return record(l.widgets("a").Patch(ctx, "w1", apiserver.MergePatchType, []byte(`{"kind":"Gadget"}`), apiserver.PatchOptions{}))
	}},
	{"delete with a bad propagation policy: Invalid", func(ctx context.Context, l lane) result {
		bad := apiserver.DeletionPropagation("Sideways")
		return record(nil, l.widgets("a").Delete(ctx, "w1", apiserver.DeleteOptions{PropagationPolicy: &bad}))
	}},
	{"list by label", func(ctx context.Context, l lane) result {
		return recordList(l.widgets("").List(ctx, apiserver.ListOptions{LabelSelector: "color=red"}))
	}},
	{"list with a bad selector: BadRequest", func(ctx context.Context, l lane) result {
		return recordList(l.widgets("").List(ctx, apiserver.ListOptions{LabelSelector: "color in red"}))
	}},
	{"delete with a stale precondition: Conflict", func(ctx context.Context, l lane) result {
		return record(nil, l.widgets("a").Delete(ctx, "w1", apiserver.DeleteOptions{Preconditions: &apiserver.Preconditions{ResourceVersion: ptr("1")}}))
	}},
	{"delete", func(ctx context.Context, l lane) result {
		return record(nil, l.widgets("a").Delete(ctx, "w1", apiserver.DeleteOptions{}))
	}},
	{"delete again: NotFound", func(ctx context.Context, l lane) result {
		return record(nil, l.widgets("a").Delete(ctx, "w1", apiserver.DeleteOptions{}))
	}},
	{"create a cluster-scoped gadget", func(ctx context.Context, l lane) result {
		g := &apiservertest.Gadget{ObjectMeta: apiserver.ObjectMeta{Name: "g1"}}
		return record(l.gadgets("").Create(ctx, g, apiserver.CreateOptions{}))
	}},
	{"get the gadget", func(ctx context.Context, l lane) result {
		return record(l.gadgets("").Get(ctx, "g1", apiserver.GetOptions{}))
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
		ignoreUID := cmpopts.IgnoreFields(apiserver.ObjectMeta{}, "UID", "ManagedFields")
		for _, step := range steps {
			want := step.do(t.Context(), lanes[0])
			got := step.do(t.Context(), lanes[1])
			_, reason, _ := strings.Cut(step.name, ": ")
			if wantReason := apiserver.StatusReason(reason); got.Err == nil && reason != "" || got.Err != nil && got.Err.Reason != wantReason {
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
		if _, err := widgets.Create(t.Context(), w, apiserver.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, gone, err := widgets.DeleteObject(t.Context(), "held", apiserver.DeleteOptions{})
		if err != nil || gone || obj == nil || obj.GetObjectMeta().DeletionTimestamp == nil {
			t.Fatalf("DeleteObject with a finalizer = %v, gone %t, %v; want the object, marked", obj, gone, err)
		}
		if _, err := widgets.Patch(t.Context(), "held", apiserver.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), apiserver.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := widgets.Create(t.Context(), apiservertest.NewWidget("a", "free"), apiserver.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, gone, err = widgets.DeleteObject(t.Context(), "free", apiserver.DeleteOptions{})
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
		namespaces := newClient(t, srv, rest.Config{}).Resource(apiserver.NamespacesResource)
		if _, err := namespaces.Create(t.Context(), builtin.NewNamespace("team"), apiserver.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		obj, gone, err := namespaces.DeleteObject(t.Context(), "team", apiserver.DeleteOptions{})
		ns, _ := obj.(*builtin.Namespace)
		if err != nil || gone || ns == nil || ns.Status.Phase != apiserver.NamespaceTerminating {
			t.Fatalf("DeleteObject of a namespace = %v, gone %t, %v; want it Terminating, not gone", obj, gone, err)
		}
		ns.Spec.Finalizers = nil
		if _, err := namespaces.Finalize(t.Context(), ns, apiserver.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := namespaces.Get(t.Context(), "team", apiserver.GetOptions{}); !apiserver.IsNotFound(err) {
			t.Errorf("namespace after Finalize: %v, want 404", err)
		}
	})
}
