package jsonenc_test

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// targets are the types FuzzUnmarshal decodes into: the stored kinds
// (the kitchen's, the builtin ones, the test kinds, unstructured), and
// shapes beside them.
var targets = []reflect.Type{
	reflect.TypeFor[kitchen.Order](), reflect.TypeFor[kitchen.Cook](), reflect.TypeFor[kitchen.Dish](),
	reflect.TypeFor[builtin.Lease](), reflect.TypeFor[builtin.Namespace](), reflect.TypeFor[builtin.Event](),
	reflect.TypeFor[builtin.EventsV1Event](), reflect.TypeFor[apiservertest.Widget](), reflect.TypeFor[apiservertest.Gadget](),
	reflect.TypeFor[meta.Unstructured](), reflect.TypeFor[map[string]any](), reflect.TypeFor[map[string]string](),
	reflect.TypeFor[[]any](), reflect.TypeFor[any](), reflect.TypeFor[decodable](), reflect.TypeFor[node](),
	reflect.TypeFor[meta.ObjectMeta](), reflect.TypeFor[*meta.Condition](), reflect.TypeFor[string](),
	reflect.TypeFor[int8](), reflect.TypeFor[uint16](), reflect.TypeFor[float32](), reflect.TypeFor[float64](),
}

// storedObjects are objects as the server stores them (json.Marshal of
// what a create or an update left), each with the index of its type in
// targets.
var storedObjects = []struct {
	target int
	json   string
}{
	{0, `{"apiVersion":"kitchen.kitchensync.dev/v1","kind":"Order","metadata":{"name":"order-063","namespace":"dining-room",` +
		`"uid":"4b7f0e2c-7d7e-4f39-9a55-0c1d8b6e2f10","resourceVersion":"972","generation":2,` +
		`"creationTimestamp":"2024-05-01T19:30:00Z","labels":{"section":"vip","table":"7"},` +
		`"annotations":{"kitchensync.dev/note":"no nuts, please \u2014 allergy"},"finalizers":["kitchen.kitchensync.dev/cooks"],` +
		`"managedFields":[{"manager":"waiter","operation":"Update","apiVersion":"kitchen.kitchensync.dev/v1",` +
		`"time":"2024-05-01T19:30:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:items":{},"f:table":{}}}}]},` +
		`"spec":{"table":7,"section":"vip","items":[{"dish":"beef-wellington","quantity":2,"extras":["black-truffle"]},` +
		`{"dish":"tarte-tatin","quantity":1}],"priority":3},"status":{"phase":"Cooking","observedGeneration":2,` +
		`"conditions":[{"type":"Accepted","status":"True","observedGeneration":2,"lastTransitionTime":"2024-05-01T19:30:01Z",` +
		`"reason":"OnTheMenu","message":"every dish is on the menu"}],"items":[{"dish":"beef-wellington","cook":"order-063-0-g2",` +
		`"phase":"Cooking"},{"dish":"tarte-tatin"}]}}`},
	{1, `{"apiVersion":"kitchen.kitchensync.dev/v1","kind":"Cook","metadata":{"name":"order-063-0-g2","namespace":"dining-room",` +
		`"uid":"9d1c","resourceVersion":"975","generation":1,"creationTimestamp":"2024-05-01T19:30:02Z",` +
		`"labels":{"kitchen.kitchensync.dev/order":"order-063"},"ownerReferences":[{"apiVersion":"kitchen.kitchensync.dev/v1",` +
		`"kind":"Order","name":"order-063","uid":"4b7f0e2c","controller":true,"blockOwnerDeletion":true}]},` +
		`"spec":{"order":"order-063","item":0,"dish":"beef-wellington","quantity":2,"extras":["black-truffle"],"station":"oven",` +
		`"cookingTime":"40m0s"},"status":{"phase":"Cooking","message":"in the oven"}}`},
	{2, `{"apiVersion":"kitchen.kitchensync.dev/v1","kind":"Dish","metadata":{"name":"tarte-tatin","uid":"d1","resourceVersion":"3",` +
		`"generation":1,"creationTimestamp":"2024-05-01T18:00:00Z"},"spec":{"ingredients":{"apple":"6pcs","butter":"100g",` +
		`"sugar":"150g"},"cookingTime":"45m0s","difficulty":3,"station":"pastry"}}`},
	{3, `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"chef","namespace":"kube-system","uid":"l1",` +
		`"resourceVersion":"1204","creationTimestamp":"2024-05-01T18:00:00Z"},"spec":{"holderIdentity":"chef-0_6f1c",` +
		`"leaseDurationSeconds":15,"acquireTime":"2024-05-01T18:00:00.123456Z","renewTime":"2024-05-01T19:31:02.654321Z",` +
		`"leaseTransitions":4}}`},
	{4, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"dining-room","uid":"n1","resourceVersion":"2",` +
		`"creationTimestamp":"2024-05-01T18:00:00Z","labels":{"kubernetes.io/metadata.name":"dining-room"}},` +
		`"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}`},
	{4, `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"terrace","uid":"n2","resourceVersion":"90","generation":1,` +
		`"creationTimestamp":"2024-05-01T18:00:00Z","deletionTimestamp":"2024-05-01T20:00:00Z","deletionGracePeriodSeconds":0},` +
		`"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Terminating","conditions":[{"type":"NamespaceContentRemaining",` +
		`"status":"True","lastTransitionTime":"2024-05-01T20:00:00Z","reason":"SomeResourcesRemain","message":"2 orders"}]}}`},
	{7, `{"apiVersion":"test.kitchensync.dev/v1","kind":"Widget","metadata":{"name":"w","namespace":"ns","uid":"w1",` +
		`"resourceVersion":"5","generation":1,"creationTimestamp":"2024-05-01T18:00:00Z"},"spec":{"size":3,"color":"red"}}`},
	{9, `{"apiVersion":"example.com/v1","kind":"Menu","metadata":{"name":"dinner","namespace":"ns","resourceVersion":"8"},` +
		`"spec":{"courses":[{"name":"starter","price":12.5,"vegan":true},{"name":"main","price":31,"tags":null}],` +
		`"limits":{"seats":40,"big":12345678901234567890}},"status":{}}`},
	{10, `{"spec":{"replicas":3,"template":{"metadata":{"labels":{"app":"kitchen"}},"spec":{"containers":[{"name":"chef",` +
		`"image":"chef:1.2","ports":[{"containerPort":8080}],"env":[{"name":"A","value":"\"quoted\""}]}]}}},"n":-0.0,"e":1E+2}`},
	{11, `{"app":"kitchen","tier":"back","empty":"","esc\u00e9":"\ud83c\udf73"}`},
}

// oddities are the inputs the decoder must give up on or take as
// encoding/json takes them, written into every target.
var oddities = []string{
	``, ` `, `null`, ` null `, `{}`, `[]`, `""`, `0`, `-0`, `01`, `1.`, `.5`, `1e`, `1e+`, `-`, `+1`, `1E400`, `-1e-400`,
	`128`, `-129`, `65536`, `3.4e39`, `0x10`, `Infinity`, `NaN`, `true`, `tru`, `nul`, `"\u00e9"`, `"\ud800"`, `"\x00"`,
	"\"\xff\"", `"\/"`, `"\q"`, `{"metadata":null}`, `{"metadata":{"name":null,"labels":null}}`, `{"metadata":{"labels":{}}}`,
	`{"metadata":{"labels":{"a":null}}}`, `{"metadata":{"labels":{"a":"1","a":"2"}}}`, `{"Metadata":{}}`,
	`{"metadata":{"Name":"x"}}`, `{"metadata":{"name":"x","name":"y"}}`, `{"spec":{"items":[null,{}]}}`,
	`{"spec":{"items":[]}}`, `{"spec":{"table":"7"}}`, `{"spec":{"table":7.5}}`, `{"spec":{"cookingTime":null}}`,
	`{"spec":{"renewTime":null,"holderIdentity":null}}`, `{"metadata":{"creationTimestamp":""}}`,
	`{"metadata":{"creationTimestamp":"2024-05-01T19:30:00+02:00"}}`, `{"metadata":{"managedFields":[{"fieldsV1":null}]}}`,
	`{"kind":"Order"} x`, `{"kind":"Order",}`, `{"kind" "Order"}`, `{,}`, `[1,]`, `{"a":1}{}`, "{\"kind\":\"\xff\"}",
	"{\"ki\\u006ed\":\"Order\"}", "{\t\"kind\"\r\n:\"Order\"\n}", `{"metadata":{"generation":9223372036854775808}}`,
	`{"Next":{"Next":{"Name":"deep","Kids":[{"Name":"a"},{"Kids":null}]}}}`, `[[[]]]`, `[{"a":[1,"2",{"b":null}]}]`,
}

// FuzzUnmarshal checks that jsonenc.Unmarshal leaves what json.Unmarshal
// leaves (the same value, compared with go-cmp and reflect.DeepEqual,
// and the same error) for any input, into a new value of any of the
// targets. The seeds are stored objects, the oddities, and values of
// every target filled at random and encoded by json.Marshal.
func FuzzUnmarshal(f *testing.F) {
	for _, o := range storedObjects {
		f.Add(uint8(o.target), []byte(o.json))
	}
	for n, s := range oddities {
		f.Add(uint8(n), []byte(s))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for n, typ := range targets {
		for range 2 {
			v := reflect.New(typ)
			fill(r, v.Elem(), 0)
			if data, err := json.Marshal(v.Interface()); err == nil {
				f.Add(uint8(n), data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, target uint8, data []byte) {
		sameDecoding(t, targets[int(target)%len(targets)], data)
	})
}

// TestUnmarshalStoredObjects checks that the stored objects and the
// oddities decode as json.Unmarshal decodes them, into every target,
// and that the stored objects are decoded without json.Unmarshal (the
// fast path is what the server takes for what it stores).
func TestUnmarshalStoredObjects(t *testing.T) {
	for _, o := range storedObjects {
		for _, typ := range targets {
			sameDecoding(t, typ, []byte(o.json))
		}
		typ := targets[o.target]
		if !jsonenc.FastUnmarshal([]byte(o.json), reflect.New(typ).Interface()) {
			t.Errorf("%v: %.60s... decoded by json.Unmarshal, want by jsonenc itself", typ, o.json)
		}
	}
	for _, s := range oddities {
		for _, typ := range targets {
			sameDecoding(t, typ, []byte(s))
		}
	}
	// A member in another case is encoding/json's to match: given up.
	lower := strings.Replace(storedObjects[0].json, `"spec"`, `"Spec"`, 1)
	if jsonenc.FastUnmarshal([]byte(lower), &kitchen.Order{}) {
		t.Errorf(`"Spec" decoded by jsonenc itself, want by json.Unmarshal`)
	}
}
