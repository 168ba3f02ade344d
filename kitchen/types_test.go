package kitchen_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

func TestDishJSONLikeTheStory(t *testing.T) {
	const story = `{"apiVersion":"menu.example.com/v1","kind":"Dish","metadata":{"name":"beef-wellington"},
	"spec":{"ingredients":{"filet-mignon":"500g","puff-pastry":"200g"},"cookingTime":"40m","difficulty":5}}`
	var d kitchen.Dish
	if err := json.Unmarshal([]byte(story), &d); err != nil {
		t.Fatal(err)
	}
	want := kitchen.Dish{
		TypeMeta:   meta.TypeMeta{APIVersion: "menu.example.com/v1", Kind: "Dish"},
		ObjectMeta: meta.ObjectMeta{Name: "beef-wellington"},
		Spec: kitchen.DishSpec{
			Ingredients: map[string]kitchen.Quantity{"filet-mignon": "500g", "puff-pastry": "200g"},
			CookingTime: kitchen.Duration{Duration: 40 * time.Minute}, Difficulty: 5,
		},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Fatalf("decoded dish (-want +got):\n%s", diff)
	}
	if err := kitchen.ValidateDish(&d); err != nil {
		t.Fatalf("the story's dish is invalid: %v", err)
	}
	out, _ := json.Marshal(d.Spec.CookingTime)
	if string(out) != `"40m0s"` {
		t.Errorf("cookingTime marshals as %s, want \"40m0s\" like metav1.Duration", out)
	}
}

func TestOrderJSONFieldNames(t *testing.T) {
	o := kitchen.Order{
		ObjectMeta: meta.ObjectMeta{Name: "t7", Namespace: "dinner"},
		Spec: kitchen.OrderSpec{Table: 7, Section: "vip", Priority: 2,
			Items: []kitchen.OrderItem{{Dish: "seafood-pasta", Quantity: 1, Extras: []string{"black-truffle"}}}},
		Status: kitchen.OrderStatus{Phase: kitchen.OrderCooking, ObservedGeneration: 1},
	}
	b, err := json.Marshal(&o)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"metadata":{"name":"t7","namespace":"dinner"},"spec":{"table":7,"section":"vip",` +
		`"items":[{"dish":"seafood-pasta","quantity":1,"extras":["black-truffle"]}],"priority":2},` +
		`"status":{"phase":"Cooking","observedGeneration":1}}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
}

func TestDeepCopySharesNothing(t *testing.T) {
	o := &kitchen.Order{
		ObjectMeta: meta.ObjectMeta{Name: "t1", Labels: map[string]string{"a": "b"}, Finalizers: []string{"f"}},
		Spec:       kitchen.OrderSpec{Items: []kitchen.OrderItem{{Dish: "d", Quantity: 1, Extras: []string{"x"}}}},
		Status: kitchen.OrderStatus{Conditions: []meta.Condition{{Type: "Ready"}},
			Items: []kitchen.ItemStatus{{Dish: "d"}}},
	}
	c := meta.DeepCopy(o)
	if diff := cmp.Diff(o, c); diff != "" {
		t.Fatalf("copy differs (-orig +copy):\n%s", diff)
	}
	c.Labels["a"], c.Finalizers[0] = "z", "z"
	c.Spec.Items[0].Extras[0], c.Spec.Items[0].Dish = "z", "z"
	c.Status.Conditions[0].Type, c.Status.Items[0].Dish = "z", "z"
	if o.Labels["a"] != "b" || o.Finalizers[0] != "f" || o.Spec.Items[0].Extras[0] != "x" ||
		o.Spec.Items[0].Dish != "d" || o.Status.Conditions[0].Type != "Ready" || o.Status.Items[0].Dish != "d" {
		t.Errorf("mutating the copy changed the original: %+v", o)
	}

	d := &kitchen.Dish{Spec: kitchen.DishSpec{Ingredients: map[string]kitchen.Quantity{"egg": "2"}}}
	dc := meta.DeepCopy(d)
	dc.Spec.Ingredients["egg"] = "3"
	k := &kitchen.Cook{Spec: kitchen.CookSpec{Extras: []string{"x"}}}
	kc := meta.DeepCopy(k)
	kc.Spec.Extras[0] = "y"
	if d.Spec.Ingredients["egg"] != "2" || k.Spec.Extras[0] != "x" {
		t.Error("Dish or Cook copy shares memory with its original")
	}
}

func TestRegister(t *testing.T) {
	s := meta.NewScheme()
	if err := kitchen.Register(s); err != nil {
		t.Fatal(err)
	}
	info, ok := s.KindForResource(kitchen.OrderResource)
	if !ok || info.Kind != "Order" || !info.Namespaced {
		t.Fatalf("orders: %+v, %v", info, ok)
	}
	o := &kitchen.Order{Spec: kitchen.OrderSpec{Table: 4, Section: "vip"}}
	fields := info.FieldSet(o)
	if fields[kitchen.FieldSection] != "vip" || fields[kitchen.FieldTable] != "4" {
		t.Errorf("field set %v", fields)
	}
	if dish, _ := s.KindForResource(kitchen.DishResource); dish.Namespaced {
		t.Error("dishes should be cluster-scoped")
	}
	if err := kitchen.Register(s); err == nil {
		t.Error("registering twice should fail")
	}
}
