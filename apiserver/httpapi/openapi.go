package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The OpenAPI v3 documents served here are the least kubectl needs: one
// PATCH operation per kind that declares the fieldValidation query
// parameter, and each kind's schema ([meta.SchemaOf]) under
// components.schemas, tagged with x-kubernetes-group-version-kind.
// kubectl create and apply read the parameter to learn that the server
// validates fields itself (so it sends fieldValidation=Strict); kubectl
// explain finds the kind's schema by its tag. kubectl apply still sends
// JSON merge patches for these kinds, as for any custom resource.

// openAPIRoot is /openapi/v3: where the document of each group version is.
func (h *Handler) openAPIRoot() (any, error) {
	type entry struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	}
	paths := make(map[string]entry)
	for _, k := range h.servedKinds() {
		p := groupVersionPath(k.Group, k.Version)
		paths[p] = entry{ServerRelativeURL: "/openapi/v3/" + p}
	}
	return map[string]any{"paths": paths}, nil
}

// groupVersionPath is "api/v1" for the core group, "apis/{group}/{version}"
// for the others.
func groupVersionPath(group, version string) string {
	if group == "" {
		return "api/" + version
	}
	return "apis/" + group + "/" + version
}

// openAPIGroupVersion is /openapi/v3/apis/{group}/{version} (or
// /openapi/v3/api/v1).
func (h *Handler) openAPIGroupVersion(gvPath string) (any, error) {
	paths, schemas := make(map[string]any), make(map[string]any)
	for _, k := range h.servedKinds() {
		if groupVersionPath(k.Group, k.Version) != gvPath {
			continue
		}
		schemas[schemaName(k)] = kindSchema(k)
		path := "/" + gvPath + "/" + k.Resource + "/{name}"
		if k.Namespaced {
			path = "/" + gvPath + "/namespaces/{namespace}/" + k.Resource + "/{name}"
		}
		paths[path] = map[string]any{"patch": map[string]any{
			"description": "partially update the specified " + k.Kind,
			"x-kubernetes-group-version-kind": map[string]string{
				"group": k.Group, "version": k.Version, "kind": k.Kind,
			},
			"parameters": []map[string]any{{
				"name": "fieldValidation", "in": "query",
				"description": "Ignore, Warn (the default) or Strict: what to do with unknown fields in the body.",
				"schema":      map[string]string{"type": "string"},
			}},
			"responses": map[string]any{"200": map[string]string{"description": "OK"}},
		}}
	}
	if len(paths) == 0 {
		return nil, errNotFound()
	}
	return map[string]any{
		"openapi":    "3.0.0",
		"info":       map[string]string{"title": "kitchensync", "version": "v1.32.0"},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas},
	}, nil
}

// serveOpenAPI routes /openapi/v3 and below; /openapi/v2 is 404, which
// kubectl copes with when v3 is served.
func (h *Handler) serveOpenAPI(w http.ResponseWriter, r *http.Request, segs []string) {
	switch {
	case len(segs) == 2 && segs[1] == "v3":
		h.serveDiscovery(w, r, h.openAPIRoot)
	case len(segs) > 2 && segs[1] == "v3":
		h.serveDiscovery(w, r, func() (any, error) { return h.openAPIGroupVersion(strings.Join(segs[2:], "/")) })
	default:
		writeError(w, errNotFound())
	}
}

// schemaName names a kind's schema as kube-apiserver names a custom
// resource's: the group reversed, then version and kind
// ("io.kitchensync.test.v1.Widget").
func schemaName(k meta.KindInfo) string {
	parts := strings.Split(k.Group, ".")
	slices.Reverse(parts)
	return strings.Trim(strings.Join(parts, ".")+"."+k.Version+"."+k.Kind, ".")
}

// kindSchema is the kind's schema with its x-kubernetes-group-version-kind
// tag, as a JSON object.
func kindSchema(k meta.KindInfo) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(meta.SchemaOf(k)) // a Schema always encodes
	_ = json.Unmarshal(b, &out)
	out["x-kubernetes-group-version-kind"] = []map[string]string{{"group": k.Group, "version": k.Version, "kind": k.Kind}}
	return out
}
