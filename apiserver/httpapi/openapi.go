package httpapi

import (
	"net/http"
	"strings"
)

// The OpenAPI v3 documents served here are the least kubectl needs: no
// schemas, only one PATCH operation per kind that declares the
// fieldValidation query parameter. kubectl create and apply read them to
// learn that the server validates fields itself (so it sends
// fieldValidation=Strict instead of validating against a schema it would
// have to download); without a schema for a kind, kubectl apply falls
// back to JSON merge patches, which the server supports. kubectl explain
// finds nothing to explain.

// openAPIRoot is /openapi/v3: where the document of each group version is.
func (h *Handler) openAPIRoot() (any, error) {
	type entry struct {
		ServerRelativeURL string `json:"serverRelativeURL"`
	}
	paths := make(map[string]entry)
	for _, k := range h.srv.Scheme().Kinds() {
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
	paths := make(map[string]any)
	for _, k := range h.srv.Scheme().Kinds() {
		if groupVersionPath(k.Group, k.Version) != gvPath {
			continue
		}
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
		"components": map[string]any{},
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
