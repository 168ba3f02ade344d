package httpapi_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

const (
	jsonType = "application/json"
	w4Body   = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w4"},"spec":{"color":"green"}}`
	w4JSON   = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w4","namespace":"default","uid":"<uid>","resourceVersion":"6","generation":1,"creationTimestamp":"<time>"},"spec":{"color":"green"}}`
	// w1 after a spec change at resourceVersion 6.
	w1Size5 = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"6","generation":2,"creationTimestamp":"<time>","labels":{"app":"shop"}},"spec":{"color":"red","size":5}}`
	// w1 after a status write at resourceVersion 6.
	w1Ready  = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"6","generation":1,"creationTimestamp":"<time>","labels":{"app":"shop"}},"spec":{"color":"red","size":1},"status":{"phase":"Ready"}}`
	w1Update = `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default","resourceVersion":"2","labels":{"app":"shop"}},"spec":{"color":"red","size":5}}`
)

var w1Details = `{"name":"w1","group":"test.kitchensync.io","kind":"widgets"}`

// w1KindDetails name w1 by its kind, as the real server's storage layer
// does in a failed precondition.
var w1KindDetails = `{"name":"w1","group":"test.kitchensync.io","kind":"Widget"}`

func TestCreate(t *testing.T) {
	ct := []string{"Content-Type", jsonType}
	runRoutes(t, []routeCase{
		{name: "create", method: "POST", path: wPath, body: w4Body, header: ct, code: 201, want: w4JSON},
		{name: "create without a Content-Type", method: "POST", path: wPath, body: w4Body, code: 201, want: w4JSON},
		{name: "create cluster-scoped", method: "POST", path: gPath, header: ct, code: 201,
			body: `{"metadata":{"name":"g2"},"spec":{"mode":"slow"}}`,
			want: `{"apiVersion":"test.kitchensync.io/v1","kind":"Gadget","metadata":{"name":"g2","uid":"<uid>","resourceVersion":"6","generation":1,"creationTimestamp":"<time>"},"spec":{"mode":"slow"}}`},
		{name: "dry run stores nothing and gets no resourceVersion", method: "POST", path: wPath + "?dryRun=All", body: w4Body, header: ct, code: 201,
			want: `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w4","namespace":"default","uid":"<uid>","generation":1,"creationTimestamp":"<time>"},"spec":{"color":"green"}}`},
		{name: "bad dry run", method: "POST", path: wPath + "?dryRun=Some", body: w4Body, header: ct, code: 422,
			want: failure(422, "Invalid", `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Some"]: supported values: "All"`,
				`{"group":"meta.k8s.io","kind":"CreateOptions","causes":[{"reason":"FieldValueNotSupported","message":"Unsupported value: [\"Some\"]: supported values: \"All\"","field":"dryRun"}]}`)},
		{name: "already exists", method: "POST", path: wPath, body: `{"metadata":{"name":"w1"}}`, header: ct, code: 409,
			want: failure(409, "AlreadyExists", `widgets.test.kitchensync.io "w1" already exists`, w1Details)},
		{name: "malformed JSON, in kube-apiserver's words", method: "POST", path: wPath, header: ct, code: 400,
			body: "{\n  \"metadata\": {\"name\": \"w4\",}\n}",
			want: failure(400, "BadRequest", "the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string ({\n  \"metadata\": {\"name\": \"w4\", ...)", "")},
		{name: "wrong type names the field", method: "POST", path: wPath, header: ct, code: 400,
			body: `{"metadata":{"name":"w4"},"spec":{"size":"big"}}`,
			want: failure(400, "BadRequest", `Widget in version "v1" cannot be handled as a Widget: spec.size: Invalid value: "string": must be of type integer; write a whole number, without quotes or units (the value ends at line 1, column 46 of the body)`, "")},
		{name: "not an object", method: "POST", path: wPath, header: ct, code: 400, body: `["w4"]`,
			want: failure(400, "BadRequest", `the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" } (5b227734225d)`, "")},
		{name: "empty body", method: "POST", path: wPath, header: ct, code: 400,
			want: failure(400, "BadRequest", `the request body is empty: send the object as JSON`, "")},
		{name: "unknown fields, strict", method: "POST", path: wPath + "?fieldValidation=Strict", header: ct, code: 400,
			body: `{"metadata":{"name":"w4","nickname":"x"},"spec":{"colour":"green","tags":["a"]},"extra":1}`,
			want: failure(400, "BadRequest", `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "extra", unknown field "metadata.nickname", unknown field "spec.colour"`, "")},
		{name: "duplicate fields, strict", method: "POST", path: wPath + "?fieldValidation=Strict", header: ct, code: 400,
			body: `{"metadata":{"name":"w4"},"spec":{"color":"red","tags":["a"],"color":"green"}}`,
			want: failure(400, "BadRequest", `Widget in version "v1" cannot be handled as a Widget: strict decoding error: duplicate field "spec.color"`, "")},
		{name: "duplicate fields warn by default", method: "POST", path: wPath, header: ct, code: 201,
			body: `{"metadata":{"name":"w4"},"spec":{"color":"red","color":"green"}}`, want: w4JSON,
			wantHeader: map[string]string{"Warning": `299 - "duplicate field \"spec.color\""`}},
		{name: "unknown fields warn by default", method: "POST", path: wPath, header: ct, code: 201,
			body: `{"metadata":{"name":"w4"},"spec":{"color":"green","colour":"green"}}`, want: w4JSON,
			wantHeader: map[string]string{"Warning": `299 - "unknown field \"spec.colour\""`}},
		{name: "unknown fields ignored", method: "POST", path: wPath + "?fieldValidation=Ignore", header: ct, code: 201,
			body: `{"metadata":{"name":"w4"},"spec":{"color":"green","colour":"green"}}`, want: w4JSON,
			wantHeader: map[string]string{"Warning": ""}},
		{name: "a finalizer without a domain is a warning", method: "POST", path: wPath, header: ct, code: 201,
			body:       `{"metadata":{"name":"w4","finalizers":["hold","example.com/ok"]},"spec":{"color":"green"}}`,
			want:       strings.Replace(w4JSON, `"creationTimestamp":"<time>"`, `"creationTimestamp":"<time>","finalizers":["hold","example.com/ok"]`, 1),
			wantHeader: map[string]string{"Warning": `299 - "metadata.finalizers: \"hold\": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers"`}},
		{name: "bad fieldValidation", method: "POST", path: wPath + "?fieldValidation=Loose", body: w4Body, header: ct, code: 422,
			want: failure(422, "Invalid", `CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"`,
				`{"group":"meta.k8s.io","kind":"CreateOptions","causes":[{"reason":"FieldValueNotSupported","message":"Unsupported value: \"Loose\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"","field":"fieldValidation"}]}`)},
		{name: "namespace differs from the URL", method: "POST", path: wPath, header: ct, code: 400,
			body: `{"metadata":{"name":"w4","namespace":"other"}}`,
			want: failure(400, "BadRequest", `the namespace of the provided object does not match the namespace sent on the request`, "")},
		{name: "a kind that cannot read protobuf", method: "POST", path: wPath, body: "k8s\x00", header: []string{"Content-Type", "application/vnd.kubernetes.protobuf"}, code: 415,
			want: failure(415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`, "")},
		{name: "an answer only in protobuf", method: "POST", path: wPath, body: w4Body, header: []string{"Content-Type", jsonType, "Accept", "application/vnd.kubernetes.protobuf"}, code: 406,
			want: failure(406, "NotAcceptable", `only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io (asked for "application/vnd.kubernetes.protobuf")`, "")},
		{name: "YAML is read as JSON", method: "POST", path: wPath, body: "metadata: {name: w4}\nspec:\n  color: green\n", header: []string{"Content-Type", "application/yaml"}, code: 201,
			want: w4JSON},
		{name: "text/plain is not read", method: "POST", path: wPath, body: w4Body, header: []string{"Content-Type", "text/plain"}, code: 415,
			want: failure(415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`, "")},
		{name: "create needs a namespace", method: "POST", path: "/apis/test.kitchensync.io/v1/widgets", body: w4Body, header: ct, code: 405,
			want:       failure(405, "MethodNotAllowed", `POST is not allowed on /apis/test.kitchensync.io/v1/widgets (widgets.test.kitchensync.io is namespaced: write through /namespaces/{namespace}/widgets): use GET`, ""),
			wantHeader: map[string]string{"Allow": "GET"}},
		{name: "deletecollection answers the deleted objects as they were", method: "DELETE", path: wPath + "?labelSelector=app%3Dshop", code: 200,
			want: `{"apiVersion":"test.kitchensync.io/v1","kind":"WidgetList","metadata":{"resourceVersion":"5"},"items":[` + w1JSON + `]}`},
		{name: "PUT on a collection", method: "PUT", path: wPath, body: w4Body, code: 405,
			want:       failure(405, "MethodNotAllowed", `PUT is not allowed on `+wPath+`: use GET, POST, DELETE`, ""),
			wantHeader: map[string]string{"Allow": "GET, POST, DELETE"}},
		{name: "POST on an object creates, as for a custom resource", method: "POST", path: w1Path, body: w4Body, code: 201, want: w4JSON},
		{name: "injected 429 keeps its Retry-After", method: "POST", path: wPath, body: w4Body, header: ct, code: 429,
			setup: func(srv *apiserver.Server) {
				srv.FailNext(apiserver.VerbCreate, 1, meta.NewTooManyRequests("the kitchen is full", 3))
			},
			want:       failure(429, "TooManyRequests", "the kitchen is full", `{"retryAfterSeconds":3}`),
			wantHeader: map[string]string{"Retry-After": "3"}},
		{name: "an error that is not a Status is a 500", method: "POST", path: wPath, body: w4Body, header: ct, code: 500,
			setup: func(srv *apiserver.Server) { srv.FailNext(apiserver.VerbCreate, 1, errors.New("the oven is on fire")) },
			want:  failure(500, "InternalError", "Internal error occurred: the oven is on fire", `{"causes":[{"message":"the oven is on fire"}]}`)},
	})
}

func TestUpdate(t *testing.T) {
	ct := []string{"Content-Type", jsonType}
	merge := []string{"Content-Type", "application/merge-patch+json"}
	jsonPatch := []string{"Content-Type", "application/json-patch+json"}
	conflict := failure(409, "Conflict", `Operation cannot be fulfilled on widgets.test.kitchensync.io "w1": the object has been modified; please apply your changes to the latest version and try again`, w1Details)
	runRoutes(t, []routeCase{
		{name: "update", method: "PUT", path: w1Path, body: w1Update, header: ct, code: 200, want: w1Size5},
		{name: "stale update", method: "PUT", path: w1Path, header: ct, code: 409, want: conflict,
			body: `{"metadata":{"name":"w1","resourceVersion":"2"},"spec":{"size":5}}`,
			setup: func(srv *apiserver.Server) {
				_, _ = srv.Resource(widgets).Namespace("default").Patch(ctx, "w1", meta.MergePatchType, []byte(`{"spec":{"size":2}}`), meta.PatchOptions{})
			}},
		{name: "name differs from the URL", method: "PUT", path: w1Path, header: ct, code: 400,
			body: `{"metadata":{"name":"w2","resourceVersion":"2"}}`,
			want: failure(400, "BadRequest", `the name of the object (w2) does not match the name on the URL (w1)`, "")},
		{name: "update status", method: "PUT", path: w1Path + "/status", header: ct, code: 200, want: w1Ready,
			body: `{"metadata":{"name":"w1","resourceVersion":"2"},"spec":{"size":99},"status":{"phase":"Ready"}}`},
		{name: "no status subresource", method: "PUT", path: gPath + "/g1/status", header: ct, code: 404, want: g1NotFound,
			body: `{"metadata":{"name":"g1","resourceVersion":"5"}}`},
		{name: "merge patch", method: "PATCH", path: w1Path, body: `{"spec":{"size":5}}`, header: merge, code: 200, want: w1Size5},
		{name: "merge patch with a stale resourceVersion", method: "PATCH", path: w1Path, header: merge, code: 409, want: conflict,
			body: `{"metadata":{"resourceVersion":"0"},"spec":{"size":5}}`},
		{name: "JSON patch", method: "PATCH", path: w1Path, header: jsonPatch, code: 200, want: w1Size5,
			body: `[{"op":"replace","path":"/spec/size","value":5}]`},
		{name: "JSON patch that fails", method: "PATCH", path: w1Path, header: jsonPatch, code: 422,
			body: `[{"op":"remove","path":"/spec/nothing"}]`,
			want: failure(422, "Invalid", `the server rejected our request due to an error in our request`, `{}`)},
		{name: "JSON patch that renames", method: "PATCH", path: w1Path, header: jsonPatch, code: 400,
			body: `[{"op":"replace","path":"/metadata/name","value":"w9"}]`,
			want: failure(400, "BadRequest", `the name of the object (w9) does not match the name on the URL (w1)`, "")},
		{name: "merge patch of status", method: "PATCH", path: w1Path + "/status", header: merge, code: 200, want: w1Ready,
			body: `{"status":{"phase":"Ready"}}`},
		{name: "strategic merge patch is not supported", method: "PATCH", path: w1Path, body: `{"spec":{"size":5}}`,
			header: []string{"Content-Type", "application/strategic-merge-patch+json"}, code: 415,
			want: failure(415, "UnsupportedMediaType", `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`, "")},
		{name: "patch of a missing object", method: "PATCH", path: wPath + "/nope", body: `{}`, header: merge, code: 404,
			want: failure(404, "NotFound", `widgets.test.kitchensync.io "nope" not found`, `{"name":"nope","group":"test.kitchensync.io","kind":"widgets"}`)},
	})
}

func TestDelete(t *testing.T) {
	success := `{"kind":"Status","apiVersion":"v1","status":"Success","details":{"name":"w1","group":"test.kitchensync.io","kind":"widgets","uid":"<uid>"}}`
	// w1 held by the orphan finalizer, as an Orphan delete leaves it.
	w1Orphaning := `{"apiVersion":"test.kitchensync.io/v1","kind":"Widget","metadata":{"name":"w1","namespace":"default","uid":"<uid>","resourceVersion":"6","generation":2,"creationTimestamp":"<time>","deletionTimestamp":"<time>","deletionGracePeriodSeconds":0,"labels":{"app":"shop"},"finalizers":["orphan"]},"spec":{"color":"red","size":1}}`
	runRoutes(t, []routeCase{
		{name: "delete", method: "DELETE", path: w1Path, code: 200, want: success},
		{name: "delete with kubectl's options", method: "DELETE", path: w1Path, code: 200, want: success,
			body: `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background"}`},
		{name: "precondition on uid", method: "DELETE", path: w1Path, code: 409,
			body: `{"preconditions":{"uid":"not-the-uid"}}`,
			want: `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"Operation cannot be fulfilled on Widget.test.kitchensync.io \"w1\": the UID in the precondition (not-the-uid) does not match the UID in record (<uid>). The object might have been deleted and then recreated","reason":"Conflict","details":` + w1KindDetails + `,"code":409}`},
		{name: "precondition on resourceVersion", method: "DELETE", path: w1Path, code: 409,
			body: `{"preconditions":{"resourceVersion":"7"}}`,
			want: failure(409, "Conflict", `Operation cannot be fulfilled on Widget.test.kitchensync.io "w1": the ResourceVersion in the precondition (7) does not match the ResourceVersion in record (2). The object might have been modified`, w1KindDetails)},
		{name: "dry run in the body", method: "DELETE", path: w1Path, body: `{"dryRun":["All"]}`, code: 200, want: success},
		{name: "bad body", method: "DELETE", path: w1Path, body: `{"preconditions":`, code: 400,
			want: failure(400, "BadRequest", `unexpected end of JSON input`, "")},
		{name: "grace period of the wrong type", method: "DELETE", path: w1Path, body: `{"gracePeriodSeconds":"soon"}`, code: 400,
			want: failure(400, "BadRequest", `json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64`, "")},
		{name: "unknown propagation policy", method: "DELETE", path: w1Path, body: `{"propagationPolicy":"Bogus"}`, code: 422,
			want: failure(422, "Invalid", `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"`,
				`{"group":"meta.k8s.io","kind":"DeleteOptions","causes":[{"reason":"FieldValueNotSupported","message":"Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"","field":"propagationPolicy"}]}`)},
		{name: "orphan answers with the object it holds", method: "DELETE", path: w1Path, body: `{"propagationPolicy":"Orphan"}`, code: 200, want: w1Orphaning},
		{name: "options in the query", method: "DELETE", path: w1Path + "?propagationPolicy=Orphan", code: 200, want: w1Orphaning},
		{name: "bad grace period in the query", method: "DELETE", path: w1Path + "?gracePeriodSeconds=soon", code: 400,
			want: failure(400, "BadRequest", `invalid query parameter gracePeriodSeconds="soon": must be an integer`, "")},
		{name: "missing", method: "DELETE", path: wPath + "/nope", code: 404,
			want: failure(404, "NotFound", `widgets.test.kitchensync.io "nope" not found`, `{"name":"nope","group":"test.kitchensync.io","kind":"widgets"}`)},
		{name: "status cannot be deleted", method: "DELETE", path: w1Path + "/status", code: 405,
			want:       failure(405, "MethodNotAllowed", `DELETE is not allowed on `+w1Path+`/status: use GET, PUT, PATCH`, ""),
			wantHeader: map[string]string{"Allow": "GET, PUT, PATCH"}},
	})
}
