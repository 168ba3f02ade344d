package meta_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Shelf exercises schema derivation: a keyed list, a map, a time, a
// pointer, raw JSON and a recursive type.
type Shelf struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            ShelfSpec `json:"spec"`
}

type ShelfSpec struct {
	Slots   []Slot            `json:"slots,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
	Checked meta.Time         `json:"checked,omitzero"`
	Limit   *int32            `json:"limit,omitempty"`
	Extra   json.RawMessage   `json:"extra,omitempty"`
	Next    *ShelfSpec        `json:"next,omitempty"`
	Ratio   float64           `json:"ratio"`
	Shelved Span              `json:"shelved,omitzero"`
	Tag     Tag               `json:"tag,omitzero"`
}

// Span has its own JSON form and says what it is, as metav1.Duration does.
type Span struct{ Seconds int }

func (s Span) MarshalJSON() ([]byte, error) { return json.Marshal(s.Seconds) }
func (Span) OpenAPISchemaType() []string    { return []string{"integer"} }
func (Span) OpenAPISchemaFormat() string    { return "int32" }

// Tag has its own JSON form and does not say what it is.
type Tag struct{ Text string }

func (t *Tag) MarshalJSON() ([]byte, error) { return json.Marshal(t.Text) }

type Slot struct {
	Name string `json:"name"`
	Full bool   `json:"full,omitempty"`
}

func (s *Shelf) DeepCopyObject() meta.Object { out := *s; return &out }

func TestSchemaOfDerivesFromGoType(t *testing.T) {
	info := meta.KindInfo{Group: "test.kitchensync.io", Version: "v1", Kind: "Shelf", Resource: "shelves",
		New: func() meta.Object { return &Shelf{} }, ListMapKeys: map[string][]string{"spec.slots": {"name"}}}
	got, _ := json.Marshal(meta.SchemaOf(info).Properties["spec"])
	want := `{"type":"object","properties":{
		"checked":{"type":"string","format":"date-time"},
		"extra":{"x-kubernetes-preserve-unknown-fields":true},
		"labels":{"type":"object","additionalProperties":{"type":"string"}},
		"limit":{"type":"integer","format":"int32"},
		"next":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
		"ratio":{"type":"number","format":"double"},
		"shelved":{"type":"integer","format":"int32"},
		"tag":{"x-kubernetes-preserve-unknown-fields":true},
		"slots":{"type":"array","items":{"type":"object","properties":{"full":{"type":"boolean"},"name":{"type":"string"}},"required":["name"]},
			"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"]}},
		"required":["ratio"]}`
	var g, w any
	_ = json.Unmarshal(got, &g)
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("spec schema (-want +got):\n%s", diff)
	}
	given := &meta.Schema{Type: "object", Description: "mine"}
	info.Schema = given
	if meta.SchemaOf(info) != given {
		t.Error("a given schema is not used as is")
	}
}
