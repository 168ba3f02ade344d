package apiserver_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Every bad request gets a typed error whose message names what is wrong,
// stores nothing and panics never.
func TestBadInput(t *testing.T) {
	huge := apiservertest.NewWidget("ns", "huge")
	huge.Spec.Tags = []string{strings.Repeat("x", 2000)}
	tests := []struct {
		name string
		call func(f *fixture) error
		is   func(error) bool
		want string // a substring of the message
	}{
		{"nil object", func(f *fixture) error {
			_, err := f.res.Namespace("ns").Create(f.ctx, nil, meta.CreateOptions{})
			return err
		}, meta.IsBadRequest, "the object is nil"},
		{"typed nil object", func(f *fixture) error {
			_, err := f.widgets.Create(f.ctx, nil, meta.CreateOptions{})
			return err
		}, meta.IsBadRequest, "the object is nil"},
		{"invalid name", func(f *fixture) error {
			_, err := f.widgets.Create(f.ctx, apiservertest.NewWidget("ns", "Bad_Name"), meta.CreateOptions{})
			return err
		}, meta.IsInvalid, `metadata.name: Invalid value: "Bad_Name"`},
		{"missing name", func(f *fixture) error {
			_, err := f.widgets.Create(f.ctx, apiservertest.NewWidget("ns", ""), meta.CreateOptions{})
			return err
		}, meta.IsInvalid, "metadata.name: Required value: name or generateName is required"},
		{"bad label", func(f *fixture) error {
			w := apiservertest.NewWidget("ns", "a")
			w.Labels = map[string]string{"bad key!": "v"}
			_, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
			return err
		}, meta.IsInvalid, "metadata.labels"},
		{"bad annotation key", func(f *fixture) error {
			a := f.create(nil, "a", "red", nil)
			a.Annotations = map[string]string{"no spaces please": "v"}
			_, err := f.widgets.Update(f.ctx, a, meta.UpdateOptions{})
			return err
		}, meta.IsInvalid, "metadata.annotations"},
		{"unknown resource", func(f *fixture) error {
			_, err := f.srv.Resource(meta.GroupVersionResource{Group: "x.io", Version: "v1", Resource: "nopes"}).List(f.ctx, meta.ListOptions{})
			return err
		}, meta.IsNotFound, "the server could not find the requested resource"},
		{"wrong kind in body", func(f *fixture) error {
			_, err := f.res.Namespace("ns").Create(f.ctx, apiservertest.NewGadget("g"), meta.CreateOptions{})
			return err
		}, meta.IsBadRequest, `Gadget in version "test.kitchensync.io/v1" cannot be handled as a Widget`},
		{"TypeMeta disagrees with the Go type", func(f *fixture) error {
			w := apiservertest.NewWidget("ns", "a")
			w.Kind = "Gadget"
			_, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
			return err
		}, meta.IsInvalid, `kind: Invalid value: "Gadget": must be Widget`},
		{"object too large", func(f *fixture) error {
			_, err := f.widgets.Create(f.ctx, huge, meta.CreateOptions{})
			return err
		}, meta.IsInternalError, "etcdserver: request is too large"}, // as etcd refuses it
		{"namespace missing", func(f *fixture) error {
			_, err := f.res.Create(f.ctx, apiservertest.NewWidget("", "a"), meta.CreateOptions{})
			return err
		}, meta.IsInvalid, "metadata.namespace: Required value"},
		{"namespace disagrees with the client", func(f *fixture) error {
			_, err := f.widgets.Create(f.ctx, apiservertest.NewWidget("other", "a"), meta.CreateOptions{})
			return err
		}, meta.IsInvalid, `metadata.namespace: Invalid value: "other": does not match the namespace of the request ("ns")`},
		{"namespace on a cluster-scoped kind", func(f *fixture) error {
			g := apiservertest.NewGadget("g")
			g.Namespace = "ns"
			_, err := client.New[*apiservertest.Gadget](f.srv).Create(f.ctx, g, meta.CreateOptions{})
			return err
		}, meta.IsInvalid, "metadata.namespace: Forbidden: not allowed on this type"},
		{"namespaced client of a cluster-scoped kind", func(f *fixture) error {
			_, err := client.New[*apiservertest.Gadget](f.srv).Namespace("ns").Get(f.ctx, "g", meta.GetOptions{})
			return err
		}, meta.IsBadRequest, `gadgets.test.kitchensync.io is cluster-scoped: the namespace "ns" is not allowed`},
		{"resourceVersion on create", func(f *fixture) error {
			w := apiservertest.NewWidget("ns", "a")
			w.ResourceVersion = "3"
			_, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
			return err
		}, meta.IsBadRequest, "resourceVersion should not be set on objects to be created"},
		{"malformed label selector", func(f *fixture) error {
			_, err := f.res.List(f.ctx, meta.ListOptions{LabelSelector: "a in (b"})
			return err
		}, meta.IsBadRequest, "unable to parse requirement: found '', expected: ',' or ')'"},
		{"malformed field selector", func(f *fixture) error {
			_, err := f.res.Watch(f.ctx, meta.ListOptions{FieldSelector: "spec.color"})
			return err
		}, meta.IsBadRequest, "spec.color"},
		{"unknown field selector", func(f *fixture) error {
			_, err := f.res.List(f.ctx, meta.ListOptions{FieldSelector: "spec.colour=red"})
			return err
		}, meta.IsBadRequest, `field label not supported: spec.colour`},
		{"bad continue token", func(f *fixture) error {
			_, err := f.res.List(f.ctx, meta.ListOptions{Continue: "garbage!"})
			return err
		}, meta.IsBadRequest, "continue key is not valid"},
		{"update changes uid", func(f *fixture) error {
			a := f.create(nil, "a", "red", nil)
			a.UID = "not-the-uid"
			_, err := f.widgets.Update(f.ctx, a, meta.UpdateOptions{})
			return err
		}, meta.IsConflict, `Key: /registry/test.kitchensync.io/widgets/ns/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: not-the-uid, UID in object meta: `},
		{"update of a missing object", func(f *fixture) error {
			w := apiservertest.NewWidget("ns", "ghost")
			w.ResourceVersion = "1"
			_, err := f.widgets.Update(f.ctx, w, meta.UpdateOptions{})
			return err
		}, meta.IsNotFound, `widgets.test.kitchensync.io "ghost" not found`},
		{"patch changes name", func(f *fixture) error {
			f.create(nil, "a", "red", nil)
			_, err := f.widgets.Patch(f.ctx, "a", meta.MergePatchType, []byte(`{"metadata":{"name":"b"}}`), meta.PatchOptions{})
			return err
		}, meta.IsBadRequest, `the name of the object (b) does not match the name on the URL (a)`},
		{"patch changes namespace", func(f *fixture) error {
			f.create(nil, "a", "red", nil)
			_, err := f.widgets.Patch(f.ctx, "a", meta.MergePatchType, []byte(`{"metadata":{"namespace":"x"}}`), meta.PatchOptions{})
			return err
		}, meta.IsBadRequest, `the namespace of the object (x) does not match the namespace on the request (ns)`},
		{"patch with bad JSON", func(f *fixture) error {
			f.create(nil, "a", "red", nil)
			_, err := f.widgets.Patch(f.ctx, "a", meta.MergePatchType, []byte(`{"spec":`), meta.PatchOptions{})
			return err
		}, meta.IsBadRequest, "invalid JSON patch"},
		{"patch with a wrong field type", func(f *fixture) error {
			f.create(nil, "a", "red", nil)
			_, err := f.widgets.Patch(f.ctx, "a", meta.MergePatchType, []byte(`{"spec":{"size":"big"}}`), meta.PatchOptions{})
			return err
		}, meta.IsBadRequest, "does not decode as a Widget"},
		{"unsupported patch type", func(f *fixture) error {
			f.create(nil, "a", "red", nil)
			_, err := f.widgets.Patch(f.ctx, "a", "application/strategic-merge-patch+json", []byte(`{}`), meta.PatchOptions{})
			return err
		}, meta.IsBadRequest, `patch type "application/strategic-merge-patch+json" is not supported`},
		{"get without a name", func(f *fixture) error {
			_, err := f.widgets.Get(f.ctx, "", meta.GetOptions{})
			return err
		}, meta.IsBadRequest, "resource name may not be empty"},
		{"delete without a namespace", func(f *fixture) error {
			return f.res.Delete(f.ctx, "a", meta.DeleteOptions{})
		}, meta.IsBadRequest, "widgets.test.kitchensync.io is namespaced"},
		{"unregistered type parameter", func(f *fixture) error {
			_, err := client.New[*meta.Status](f.srv).Get(f.ctx, "a", meta.GetOptions{})
			return err
		}, meta.IsBadRequest, "no kind is registered for the Go type *meta.Status"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, apiserver.Options{MaxObjectBytes: 1000})
				rvBefore := f.srv.ResourceVersion()
				err := tt.call(f)
				if !tt.is(err) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("err = %v (reason %q), want one containing %q", err, meta.ReasonForError(err), tt.want)
				}
				// The setup may have written; the bad call itself must not.
				if list, _ := f.res.List(context.Background(), meta.ListOptions{}); len(list.Items) > 1 {
					t.Errorf("a bad call stored something: %v (rv before %s)", names(list), rvBefore)
				}
			})
		})
	}
}

func TestFinalizerNamesAreValidated(t *testing.T) {
	f := newFixture(t, apiserver.Options{})
	w := apiservertest.NewWidget("ns", "w")
	w.Finalizers = []string{"kitchen.example.com/cleanup", "Bad Finalizer!"}
	_, err := f.widgets.Create(f.ctx, w, meta.CreateOptions{})
	want := `Widget.test.kitchensync.io "w" is invalid: metadata.finalizers[1]: Invalid value: "Bad Finalizer!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
	if !meta.IsInvalid(err) || err.Error() != want {
		t.Errorf("Create = %v\nwant %s", err, want)
	}
	w.Finalizers = []string{"kitchen.example.com/cleanup"}
	got := mustCreate(t, f, w)
	got.Finalizers = []string{meta.FinalizerOrphanDependents, meta.FinalizerDeleteDependents}
	_, err = f.widgets.Update(f.ctx, got, meta.UpdateOptions{})
	want = `Widget.test.kitchensync.io "w" is invalid: metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set`
	if !meta.IsInvalid(err) || err.Error() != want {
		t.Errorf("Update = %v\nwant %s", err, want)
	}
}
