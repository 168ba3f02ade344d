package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// scale is an autoscaling/v1 Scale, what a scale subresource serves: the
// replicas an object wants (spec) and has (status), read from and
// written to the paths its kind declares ([meta.ScaleSubresource]).
type scale struct {
	meta.TypeMeta `json:",inline"`
	Metadata      scaleMeta   `json:"metadata"`
	Spec          scaleSpec   `json:"spec"`
	Status        scaleStatus `json:"status"`
}

type scaleMeta struct {
	Name              string    `json:"name,omitempty"`
	Namespace         string    `json:"namespace,omitempty"`
	UID               string    `json:"uid,omitempty"`
	ResourceVersion   string    `json:"resourceVersion,omitempty"`
	CreationTimestamp meta.Time `json:"creationTimestamp,omitzero"`
}

type scaleSpec struct {
	Replicas int64 `json:"replicas"`
}

type scaleStatus struct {
	Replicas int64  `json:"replicas"`
	Selector string `json:"selector,omitempty"`
}

// serveScale answers GET, PUT and PATCH (merge or JSON patch) on an
// object's scale subresource. A write sets the desired replicas at the
// kind's specReplicasPath, by the rules of an update of the object: a
// resourceVersion in the Scale is a precondition.
func (h *Handler) serveScale(w http.ResponseWriter, r *http.Request, t target) error {
	c := h.client(t)
	obj, err := c.Get(r.Context(), t.name, meta.GetOptions{})
	if err != nil {
		return err
	}
	cur := scaleOf(t.info, obj)
	var want *scale
	switch r.Method {
	case http.MethodGet:
		writeJSON(w, http.StatusOK, cur)
		return nil
	case http.MethodPut:
		want, err = h.readScale(w, r, nil)
	case http.MethodPatch:
		want, err = h.readScale(w, r, cur)
	default:
		return errMethodNotAllowed(w, r.Method, t.path, http.MethodGet, http.MethodPut, http.MethodPatch)
	}
	if err != nil {
		return err
	}
	u, ok := obj.(*meta.Unstructured)
	if !ok {
		return meta.NewBadRequest("the scale subresource writes only custom resources")
	}
	if rv := want.Metadata.ResourceVersion; rv != "" {
		u.ResourceVersion = rv
	}
	u.SetNestedField(want.Spec.Replicas, pathFields(t.info.Scale.SpecReplicasPath)...)
	out, err := c.Update(r.Context(), u, meta.UpdateOptions{FieldManager: fieldManager(r)})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, scaleOf(t.info, out))
	return nil
}

// readScale reads a Scale from the body of a PUT, or applies the body of
// a PATCH to cur.
func (h *Handler) readScale(w http.ResponseWriter, r *http.Request, cur *scale) (*scale, error) {
	body, err := h.readBody(w, r)
	if err != nil {
		return nil, err
	}
	if cur != nil {
		doc, _ := json.Marshal(cur)
		switch meta.PatchType(mediaType(r)) {
		case meta.MergePatchType:
			body, err = jsonpatch.MergePatch(doc, body)
		case meta.JSONPatchType:
			var p jsonpatch.Patch
			if p, err = jsonpatch.DecodePatch(body); err == nil {
				body, err = p.Apply(doc)
			}
		default:
			return nil, errUnsupportedPatch()
		}
		if err != nil {
			return nil, meta.NewBadRequest(fmt.Sprintf("the patch cannot be applied: %v", err))
		}
	}
	var s scale
	if err := json.Unmarshal(body, &s); err != nil {
		return nil, meta.NewBadRequest(fmt.Sprintf("Scale in version \"v1\" cannot be handled as a Scale: %v", err))
	}
	return &s, nil
}

// scaleOf reads obj's Scale from the paths its kind declares.
func scaleOf(info meta.KindInfo, obj meta.Object) *scale {
	m := obj.GetObjectMeta()
	s := &scale{TypeMeta: meta.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		Metadata: scaleMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp}}
	u, ok := obj.(*meta.Unstructured)
	if !ok || info.Scale == nil {
		return s
	}
	read := func(path string) any {
		if vals := meta.JSONPathValues(u.Content, path); len(vals) == 1 {
			return vals[0]
		}
		return nil
	}
	s.Spec.Replicas, _ = read(info.Scale.SpecReplicasPath).(int64)
	s.Status.Replicas, _ = read(info.Scale.StatusReplicasPath).(int64)
	if info.Scale.LabelSelectorPath != "" {
		s.Status.Selector, _ = read(info.Scale.LabelSelectorPath).(string)
	}
	return s
}

// pathFields splits a simple JSON path (".spec.replicas") into fields.
func pathFields(path string) []string {
	return strings.Split(strings.TrimPrefix(path, "."), ".")
}
