package meta_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// widgetV2 is Widget in a second version, with its own Go type.
type widgetV2 struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Colour          string `json:"colour"`
}

func (w *widgetV2) DeepCopyObject() meta.Object {
	out := *w
	out.ObjectMeta = w.ObjectMeta.DeepCopy()
	return &out
}

func widgetsV2() meta.ServedVersion {
	return meta.ServedVersion{
		Info: meta.KindInfo{Group: apiservertest.Group, Version: "v2", Kind: "Widget", Resource: "widgets",
			Namespaced: true, New: func() meta.Object { return &widgetV2{} }},
		Stored:      apiservertest.WidgetKind().GroupVersionKind(),
		FieldLabels: map[string]string{"colour": "spec.color"},
		ToStored: func(obj meta.Object) meta.Object {
			w := obj.(*widgetV2)
			return &apiservertest.Widget{ObjectMeta: w.ObjectMeta.DeepCopy(), Spec: apiservertest.WidgetSpec{Color: w.Colour}}
		},
		FromStored: func(obj meta.Object) meta.Object {
			w := obj.(*apiservertest.Widget)
			return &widgetV2{ObjectMeta: w.ObjectMeta.DeepCopy(), Colour: w.Spec.Color}
		},
	}
}

// TestRegisterServedVersion: a served version is found at its resource,
// translates its field selectors to the stored kind's, and a wrong one is
// refused whole, each cause naming its field.
func TestRegisterServedVersion(t *testing.T) {
	s := apiservertest.NewScheme()
	if err := s.RegisterServedVersion(widgetsV2()); err != nil {
		t.Fatal(err)
	}
	v, ok := s.ServedVersionForResource(meta.GroupVersionResource{Group: apiservertest.Group, Version: "v2", Resource: "widgets"})
	if !ok || v.Info.Version != "v2" || len(s.ServedVersions()) != 1 {
		t.Fatalf("served version not found: %v %+v", ok, v.Info)
	}
	got, err := v.StoredFieldSelector("colour=red,metadata.name!=w1")
	if err != nil || got != "metadata.name!=w1,spec.color=red" {
		t.Errorf("StoredFieldSelector = %q, %v", got, err)
	}
	if _, err := v.StoredFieldSelector("spec.color=red"); err == nil || err.Error() != "field label not supported: spec.color" {
		t.Errorf("a stored-only field: %v", err)
	}
	w := v.FromStoredObject(&apiservertest.Widget{ObjectMeta: meta.ObjectMeta{Name: "w1"}, Spec: apiservertest.WidgetSpec{Color: "red"}})
	want := &widgetV2{TypeMeta: meta.TypeMeta{APIVersion: apiservertest.Group + "/v2", Kind: "Widget"},
		ObjectMeta: meta.ObjectMeta{Name: "w1"}, Colour: "red"}
	if diff := cmp.Diff(want, w); diff != "" {
		t.Errorf("FromStoredObject (-want +got):\n%s", diff)
	}

	bad := widgetsV2()
	bad.Stored.Kind, bad.ToStored, bad.FieldLabels = "Nothing", nil, map[string]string{"x": "spec.nothing"}
	err = s.RegisterServedVersion(bad)
	wantErr := `ServedVersion "test.kitchensync.io/v2, Kind=Widget" is invalid: [` +
		`Info.Resource: Invalid value: "widgets": already served, ` +
		`Stored: Not found: "test.kitchensync.io/v1, Kind=Nothing", ToStored: Required value: both conversions are needed]`
	if !meta.IsInvalid(err) || err.Error() != wantErr {
		t.Errorf("bad registration:\n got %v\nwant %s", err, wantErr)
	}
}
