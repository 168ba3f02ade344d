package meta_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// menuOrder and menuDish are the smallest kinds a scheme accepts.
type menuOrder struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            struct{ Section string } `json:"spec"`
}

func (o *menuOrder) DeepCopyObject() meta.Object {
	c := *o
	c.ObjectMeta = o.ObjectMeta.DeepCopy()
	return &c
}

type menuDish struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
}

func (d *menuDish) DeepCopyObject() meta.Object {
	c := *d
	c.ObjectMeta = d.ObjectMeta.DeepCopy()
	return &c
}

// valueKind satisfies Object with a value, which a scheme must refuse:
// the server needs a pointer to fill in.
type valueKind struct{ om *meta.ObjectMeta }

func (v valueKind) GetTypeMeta() *meta.TypeMeta     { return &meta.TypeMeta{} }
func (v valueKind) GetObjectMeta() *meta.ObjectMeta { return v.om }
func (v valueKind) DeepCopyObject() meta.Object     { return v }
func (v valueKind) GetNamespace() string            { return v.om.Namespace }
func (v valueKind) GetName() string                 { return v.om.Name }

func orderInfo() meta.KindInfo {
	return meta.KindInfo{
		Group: "menu.example.com", Version: "v1", Kind: "Order", Resource: "orders", Namespaced: true,
		New: func() meta.Object { return &menuOrder{} },
		Fields: map[string]meta.FieldFunc{
			"spec.section": func(obj meta.Object) string { return obj.(*menuOrder).Spec.Section },
		},
	}
}

func dishInfo() meta.KindInfo {
	return meta.KindInfo{
		Group: "menu.example.com", Version: "v1", Kind: "Dish", Resource: "dishes",
		New: func() meta.Object { return &menuDish{} },
	}
}

func newMenuScheme(t *testing.T) *meta.Scheme {
	t.Helper()
	s := meta.NewScheme()
	if err := s.Register(orderInfo(), dishInfo()); err != nil {
		t.Fatalf("Register: %v", err)
	}
	return s
}

func TestSchemeLookups(t *testing.T) {
	s := newMenuScheme(t)
	gvk := meta.GroupVersionKind{Group: "menu.example.com", Version: "v1", Kind: "Order"}
	gvr := meta.GroupVersionResource{Group: "menu.example.com", Version: "v1", Resource: "orders"}

	byGVK, ok := s.KindForGVK(gvk)
	if !ok || byGVK.Resource != "orders" || !byGVK.Namespaced {
		t.Errorf("KindForGVK(%v) = %+v, %v", gvk, byGVK, ok)
	}
	byGVR, ok := s.KindForResource(gvr)
	if !ok || byGVR.GroupVersionKind() != gvk || byGVR.GroupVersionResource() != gvr {
		t.Errorf("KindForResource(%v) = %+v, %v", gvr, byGVR, ok)
	}
	byType, err := s.KindFor(&menuOrder{})
	if err != nil || byType.GroupVersionKind() != gvk {
		t.Errorf("KindFor(&menuOrder{}) = %+v, %v", byType, err)
	}
	if _, ok := s.KindForGVK(meta.GroupVersionKind{Group: "menu.example.com", Version: "v2", Kind: "Order"}); ok {
		t.Error("KindForGVK found an unregistered version")
	}
	if _, ok := s.KindForResource(meta.GroupVersionResource{Group: "menu.example.com", Version: "v1", Resource: "order"}); ok {
		t.Error("KindForResource found a singular resource name")
	}
	var kinds []string
	for _, k := range s.Kinds() {
		kinds = append(kinds, k.GroupVersionKind().String())
	}
	want := []string{"menu.example.com/v1, Kind=Dish", "menu.example.com/v1, Kind=Order"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("Kinds() mismatch (-want +got):\n%s", diff)
	}
	info := orderInfo()
	if got := info.GroupResource().String(); got != "orders.menu.example.com" {
		t.Errorf("GroupResource() = %q", got)
	}
	if got := info.GroupKind().String(); got != "Order.menu.example.com" {
		t.Errorf("GroupKind() = %q", got)
	}
	if got, want := info.TypeMeta(), (meta.TypeMeta{APIVersion: "menu.example.com/v1", Kind: "Order"}); got != want {
		t.Errorf("TypeMeta() = %+v, want %+v", got, want)
	}
}

func TestSchemeRegisterErrors(t *testing.T) {
	const dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	with := func(change func(*meta.KindInfo)) meta.KindInfo {
		info := meta.KindInfo{
			Group: "menu.example.com", Version: "v1", Kind: "Table", Resource: "tables",
			New: func() meta.Object { return &menuDish{} }, // replaced below where it matters
		}
		change(&info)
		return info
	}
	newTable := func() meta.Object { return &struct{ menuDish }{} }
	tests := []struct {
		name   string
		reason string
		info   meta.KindInfo
		want   string
	}{{
		name:   "Empty",
		reason: "every missing field is named at once",
		info:   meta.KindInfo{},
		want: `KindInfo "" is invalid: [Kind: Required value, Version: Required value, ` +
			`Resource: Required value: the lowercase plural, e.g. "orders", ` +
			`New: Required value: a func returning a new empty object of the kind]`,
	}, {
		name:   "UppercaseResource",
		reason: "resources are lowercase plurals",
		info:   with(func(i *meta.KindInfo) { i.Resource = "Tables"; i.New = newTable }),
		want:   `KindInfo "menu.example.com/v1, Kind=Table" is invalid: Resource: Invalid value: "Tables": ` + dns1035,
	}, {
		name:   "BadKind",
		reason: "kinds are CamelCase words",
		info:   with(func(i *meta.KindInfo) { i.Kind = "Tab le"; i.New = newTable }),
		want:   `KindInfo "menu.example.com/v1, Kind=Tab le" is invalid: Kind: Invalid value: "Tab le": lowercased, ` + dns1035,
	}, {
		name:   "BadGroup",
		reason: "groups are DNS subdomains",
		info:   with(func(i *meta.KindInfo) { i.Group = "Menu"; i.New = newTable }),
		want: `KindInfo "Menu/v1, Kind=Table" is invalid: Group: Invalid value: "Menu": a lowercase RFC 1123 subdomain must consist of ` +
			`lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character ` +
			`(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
	}, {
		name:   "NewReturnsNil",
		reason: "New must make an object",
		info:   with(func(i *meta.KindInfo) { i.New = func() meta.Object { return nil } }),
		want:   `KindInfo "menu.example.com/v1, Kind=Table" is invalid: New: Invalid value: "<nil>": must return a non-nil pointer to a struct`,
	}, {
		name:   "NewReturnsValue",
		reason: "the server fills objects in place, so they must be pointers",
		info:   with(func(i *meta.KindInfo) { i.New = func() meta.Object { return valueKind{} } }),
		want:   `KindInfo "menu.example.com/v1, Kind=Table" is invalid: New: Invalid value: "meta_test.valueKind": must return a non-nil pointer to a struct`,
	}, {
		name:   "NewPanics",
		reason: "a panic in New is reported, not propagated",
		info:   with(func(i *meta.KindInfo) { i.New = func() meta.Object { panic("boom") } }),
		want:   `KindInfo "menu.example.com/v1, Kind=Table" is invalid: New: Invalid value: "boom": New panicked`,
	}, {
		name:   "NilFieldFunc",
		reason: "a field selector needs a func",
		info: with(func(i *meta.KindInfo) {
			i.New = newTable
			i.Fields = map[string]meta.FieldFunc{"spec.size": nil}
		}),
		want: `KindInfo "menu.example.com/v1, Kind=Table" is invalid: Fields[spec.size]: Invalid value: "spec.size": ` +
			`a field selector needs a non-empty name and a non-nil FieldFunc`,
	}, {
		name:   "DuplicateGVK",
		reason: "a kind is registered once",
		info:   with(func(i *meta.KindInfo) { i.Kind = "Order"; i.New = newTable }),
		want:   `KindInfo "menu.example.com/v1, Kind=Order" is invalid: Kind: Invalid value: "Order": menu.example.com/v1, Kind=Order is already registered`,
	}, {
		name:   "DuplicateResource",
		reason: "a resource serves one kind",
		info:   with(func(i *meta.KindInfo) { i.Resource = "orders"; i.New = newTable }),
		want: `KindInfo "menu.example.com/v1, Kind=Table" is invalid: Resource: Invalid value: "orders": ` +
			`already registered for kind menu.example.com/v1, Kind=Order`,
	}, {
		name:   "DuplicateGoType",
		reason: "KindFor finds kinds by Go type, so each kind needs its own",
		info:   with(func(i *meta.KindInfo) {}),
		want: `KindInfo "menu.example.com/v1, Kind=Table" is invalid: New: Invalid value: "*meta_test.menuDish": ` +
			`Go type already registered as menu.example.com/v1, Kind=Dish; each kind needs its own type`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newMenuScheme(t)
			err := s.Register(tt.info)
			if !meta.IsInvalid(err) {
				t.Fatalf("Register error = %v, want Invalid (%s)", err, tt.reason)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
			if n := len(s.Kinds()); n != 2 {
				t.Errorf("a failed Register left %d kinds, want 2", n)
			}
		})
	}
}

func TestSchemeKindForChecksTypeMeta(t *testing.T) {
	s := newMenuScheme(t)
	type stranger struct{ menuDish }
	var nilOrder *menuOrder
	tests := []struct {
		name   string
		reason string
		obj    meta.Object
		want   string // "" means no error
	}{
		{"Empty", "an empty TypeMeta is filled from the Go type", &menuOrder{}, ""},
		{"Matching", "", &menuOrder{TypeMeta: meta.TypeMeta{APIVersion: "menu.example.com/v1", Kind: "Order"}}, ""},
		{"KindOnly", "a partial TypeMeta is checked field by field", &menuOrder{TypeMeta: meta.TypeMeta{Kind: "Order"}}, ""},
		{"WrongKind", "the body says Dish but the Go type is an Order",
			&menuOrder{TypeMeta: meta.TypeMeta{Kind: "Dish"}, ObjectMeta: meta.ObjectMeta{Name: "o1"}},
			`Dish.menu.example.com "o1" is invalid: kind: Invalid value: "Dish": must be Order`},
		{"WrongBoth", "both fields are named, for the kind the object claims",
			&menuOrder{TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Pod"}},
			`Pod "" is invalid: [kind: Invalid value: "Pod": must be Order, apiVersion: Invalid value: "v1": must be menu.example.com/v1]`},
		{"Unregistered", "", &stranger{},
			`no kind is registered for the Go type *meta_test.stranger; register it with Scheme.Register`},
		{"Nil", "a nil interface", nil, "the object is nil"},
		{"TypedNil", "a nil pointer must not panic", nilOrder, "the object is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.KindFor(tt.obj)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("KindFor error: %v (%s)", err, tt.reason)
				}
				return
			}
			wrongKind := strings.HasPrefix(tt.name, "Wrong")
			if wrongKind && !meta.IsInvalid(err) || !wrongKind && !meta.IsBadRequest(err) {
				t.Fatalf("KindFor error = %v, want Invalid for a wrong kind, else BadRequest (%s)", err, tt.reason)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSchemeNewObjectAndSetTypeMeta(t *testing.T) {
	s := newMenuScheme(t)
	obj, err := s.NewObject(meta.GroupVersionKind{Group: "menu.example.com", Version: "v1", Kind: "Order"})
	if err != nil {
		t.Fatal(err)
	}
	want := meta.TypeMeta{APIVersion: "menu.example.com/v1", Kind: "Order"}
	if o, ok := obj.(*menuOrder); !ok || o.TypeMeta != want {
		t.Errorf("NewObject = %#v, want a *menuOrder with %+v", obj, want)
	}
	_, err = s.NewObject(meta.GroupVersionKind{Group: "menu.example.com", Version: "v1", Kind: "Table"})
	if !meta.IsBadRequest(err) || err.Error() != `no kind "Table" is registered for version "menu.example.com/v1"` {
		t.Errorf("NewObject(unknown) error = %v", err)
	}

	o := &menuOrder{}
	if err := s.SetTypeMeta(o); err != nil || o.TypeMeta != want {
		t.Errorf("SetTypeMeta = %v, TypeMeta %+v; want nil, %+v", err, o.TypeMeta, want)
	}
	wrong := &menuOrder{TypeMeta: meta.TypeMeta{Kind: "Dish"}}
	if err := s.SetTypeMeta(wrong); !meta.IsInvalid(err) || wrong.Kind != "Dish" {
		t.Errorf("SetTypeMeta(wrong kind) = %v and changed TypeMeta to %+v", err, wrong.TypeMeta)
	}
}

func TestKindInfoFields(t *testing.T) {
	s := newMenuScheme(t)
	info, _ := s.KindFor(&menuOrder{})
	if diff := cmp.Diff([]string{"metadata.name", "metadata.namespace", "spec.section"}, info.SupportedFields()); diff != "" {
		t.Errorf("SupportedFields mismatch (-want +got):\n%s", diff)
	}
	o := &menuOrder{ObjectMeta: meta.ObjectMeta{Name: "t1", Namespace: "diner"}}
	o.Spec.Section = "vip"
	want := map[string]string{"metadata.name": "t1", "metadata.namespace": "diner", "spec.section": "vip"}
	if diff := cmp.Diff(want, info.FieldSet(o)); diff != "" {
		t.Errorf("FieldSet mismatch (-want +got):\n%s", diff)
	}

	ok, _ := meta.ParseFieldSelector("spec.section=vip,metadata.name!=t2")
	if err := info.ValidateFieldSelector(ok); err != nil {
		t.Errorf("ValidateFieldSelector(supported) = %v", err)
	}
	if err := info.ValidateFieldSelector(nil); err != nil {
		t.Errorf("ValidateFieldSelector(nil) = %v", err)
	}
	bad, _ := meta.ParseFieldSelector("spec.table=3")
	err := info.ValidateFieldSelector(bad)
	wantMsg := `field label not supported: spec.table` // as kube-apiserver words it
	if !meta.IsBadRequest(err) || err.Error() != wantMsg {
		t.Errorf("ValidateFieldSelector(unknown) = %v, want BadRequest %q", err, wantMsg)
	}
}

func TestSchemeKeepsItsOwnFields(t *testing.T) {
	s := meta.NewScheme()
	info := orderInfo()
	if err := s.Register(info); err != nil {
		t.Fatal(err)
	}
	delete(info.Fields, "spec.section") // the caller reuses its map
	got, _ := s.KindFor(&menuOrder{})
	if _, ok := got.Fields["spec.section"]; !ok {
		t.Error("changing the caller's Fields map after Register changed the scheme")
	}
}

func TestSchemeConcurrentUse(t *testing.T) {
	// Run with -race: lookups from many goroutines while a kind registers.
	s := newMenuScheme(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				if _, err := s.KindFor(&menuOrder{}); err != nil {
					t.Error(err)
				}
				s.Kinds()
				s.KindForResource(meta.GroupVersionResource{Group: "menu.example.com", Version: "v1", Resource: "dishes"})
			}
		})
	}
	wg.Go(func() {
		info := meta.KindInfo{Version: "v1", Kind: "Namespace", Resource: "namespaces",
			New: func() meta.Object { return &struct{ menuDish }{} }}
		if err := s.Register(info); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	if n := len(s.Kinds()); n != 3 {
		t.Errorf("Kinds() has %d kinds, want 3", n)
	}
}

func TestSchemeRegisterSeveralIsAllOrNothing(t *testing.T) {
	s := meta.NewScheme()
	if err := s.Register(); err != nil {
		t.Errorf("Register() = %v, want nil", err)
	}
	bad := meta.KindInfo{Version: "v1", Kind: "Table"} // no Resource, no New
	err := s.Register(orderInfo(), bad, dishInfo())
	if !meta.IsInvalid(err) {
		t.Fatalf("Register(order, bad, dish) = %v, want Invalid", err)
	}
	if kinds := s.Kinds(); len(kinds) != 0 {
		t.Errorf("after a refused Register, the scheme has %d kinds, want none: nothing is half-registered", len(kinds))
	}
	// Two kinds that clash with each other are refused together too.
	clash := dishInfo()
	clash.Kind = "Plate" // same resource and Go type as the dish
	if err := s.Register(dishInfo(), clash); !meta.IsInvalid(err) {
		t.Errorf("Register(dish, clashing plate) = %v, want Invalid", err)
	}
	if kinds := s.Kinds(); len(kinds) != 0 {
		t.Errorf("after a clash, the scheme has %d kinds, want none", len(kinds))
	}
	if err := s.Register(orderInfo(), dishInfo()); err != nil {
		t.Fatalf("Register(order, dish) = %v", err)
	}
	if kinds := s.Kinds(); len(kinds) != 2 {
		t.Errorf("Kinds() has %d kinds, want 2", len(kinds))
	}
}

func TestValidateAs(t *testing.T) {
	validate := meta.ValidateAs(func(o *menuOrder) meta.FieldErrors {
		var errs meta.FieldErrors
		if o.Spec.Section == "" {
			errs.Required("spec.section", "every order goes to a section")
		}
		return errs
	})
	empty, ok := &menuOrder{}, &menuOrder{}
	ok.Spec.Section = "grill"
	if errs := validate(empty); len(errs) != 1 || errs[0].Field != "spec.section" {
		t.Errorf("validate(order without section) = %+v, want one cause on spec.section", errs)
	}
	if errs := validate(ok); len(errs) != 0 {
		t.Errorf("validate(order with section) = %+v, want none", errs)
	}
	if errs := validate(&menuDish{}); len(errs) != 0 {
		t.Errorf("validate(another kind) = %+v, want none", errs)
	}
}
