package meta

import (
	"fmt"
	"maps"
)

// ReplaceResource makes the kinds and served versions of the resource gr
// exactly kinds and served, in one step: whatever gr had is dropped, and
// the new ones are checked and registered as [Scheme.Register] and
// [Scheme.RegisterServedVersion] check them, all or none. Every kind and
// served version given must be of resource gr. Nothing given removes the
// resource.
//
// It is how a kind defined by a CustomResourceDefinition comes, changes
// and goes while the server runs (see package apiserver/apiextensions): a
// request sees the old kinds or the new ones, never a mix, and a refusal
// leaves the scheme as it was. Objects already stored are the server's
// business, not the scheme's.
func (s *Scheme) ReplaceResource(gr GroupResource, kinds []KindInfo, served []ServedVersion) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	staged := &Scheme{byGVK: maps.Clone(s.byGVK), byGVR: maps.Clone(s.byGVR), byType: maps.Clone(s.byType),
		served: maps.Clone(s.served)}
	staged.dropLocked(gr)
	for _, info := range kinds {
		if info.GroupResource() != gr {
			return NewBadRequest(fmt.Sprintf("ReplaceResource(%s): kind %s is of resource %s", gr, info.GroupVersionKind(), info.GroupResource()))
		}
		if err := staged.registerLocked(info); err != nil {
			return err
		}
	}
	for _, v := range served {
		if v.Info.GroupResource() != gr {
			return NewBadRequest(fmt.Sprintf("ReplaceResource(%s): served version %s is of resource %s", gr, v.Info.GroupVersionKind(), v.Info.GroupResource()))
		}
		if err := staged.registerServedLocked(v); err != nil {
			return err
		}
	}
	s.byGVK, s.byGVR, s.byType, s.served = staged.byGVK, staged.byGVR, staged.byType, staged.served
	return nil
}

// dropLocked removes every kind and served version of gr. s.mu must be
// held (or s not yet shared).
func (s *Scheme) dropLocked(gr GroupResource) {
	for gvr, gvk := range s.byGVR {
		if gvr.GroupResource() != gr {
			continue
		}
		delete(s.byGVR, gvr)
		delete(s.byGVK, gvk)
		for t, g := range s.byType {
			if g == gvk {
				delete(s.byType, t)
			}
		}
	}
	for gvr := range s.served {
		if gvr.GroupResource() == gr {
			delete(s.served, gvr)
		}
	}
}

// kindForUnstructured finds the kind of an [Unstructured] object by its
// apiVersion and kind, which it must have: one Go type serves many kinds.
func (s *Scheme) kindForUnstructured(u *Unstructured) (KindInfo, error) {
	if u.Kind == "" || u.APIVersion == "" {
		return KindInfo{}, NewBadRequest("Object 'Kind' is missing in the unstructured object: set its apiVersion and kind")
	}
	gvk := u.GroupVersionKind()
	info, ok := s.KindForGVK(gvk)
	switch {
	case !ok:
		return KindInfo{}, NewBadRequest(fmt.Sprintf("no kind %q is registered for version %q", gvk.Kind, gvk.GroupVersion()))
	case !info.IsUnstructured():
		return KindInfo{}, NewBadRequest(fmt.Sprintf(
			"%s is served with a Go type of its own (%T), not as unstructured objects", gvk, info.New()))
	}
	return info, nil
}

// IsUnstructured reports whether the kind's objects are [Unstructured]
// (a kind a CustomResourceDefinition defines) rather than of a Go type of
// its own.
func (k KindInfo) IsUnstructured() bool {
	if k.New == nil {
		return false
	}
	_, ok := k.New().(*Unstructured)
	return ok
}
