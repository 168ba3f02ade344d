package apiserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The errors only the server's request paths produce; the general
// constructors are in errors.go.

// errUnknownResource is the 404 the real server sends for a path it does
// not serve: an unregistered resource, or a missing subresource.
func errUnknownResource(gr meta.GroupResource) *meta.StatusError {
	return meta.NewStatusError(http.StatusNotFound, meta.StatusReasonNotFound,
		"the server could not find the requested resource",
		&meta.StatusDetails{Group: gr.Group, Kind: gr.Resource})
}

// errConflict is the 409 for a stale resourceVersion.
func errConflict(info meta.KindInfo, name string) *meta.StatusError {
	return meta.NewConflict(info.GroupResource(), name, fmt.Errorf("%s", meta.ConflictMessage))
}

// errUIDPrecondition is the 409 for an update whose metadata.uid is not
// the stored object's: kube-apiserver makes the uid a precondition of the
// write, and words the failure as its storage (etcd) does, naming the key.
func errUIDPrecondition(info meta.KindInfo, stored *meta.ObjectMeta, uid string) *meta.StatusError {
	return meta.NewConflict(info.GroupResource(), stored.Name, preconditionError(fmt.Sprintf(
		"StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s",
		storageKey(info, stored), uid, stored.UID)))
}

// storageKey is the etcd key kube-apiserver keeps an object under:
// /registry/, the group for custom resources only (built-in groups are
// "" or end in k8s.io, or have no dot, like apps), the resource, the
// namespace if any, the name.
func storageKey(info meta.KindInfo, m *meta.ObjectMeta) string {
	key := "/registry/"
	if g := info.Group; g != "" && strings.Contains(g, ".") && !strings.HasSuffix(g, ".k8s.io") {
		key += g + "/"
	}
	key += info.Resource + "/"
	if info.Namespaced {
		key += m.Namespace + "/"
	}
	return key + m.Name
}

// errTooOld is the 410 for a resourceVersion below the retained history,
// worded as the Kubernetes watch cache words it.
func errTooOld(rv, compacted int64) *meta.StatusError {
	return meta.NewResourceExpired(fmt.Sprintf("too old resource version: %d (%d)", rv, compacted))
}

// errTooLargeRV is the 504 for a resourceVersion the server has not
// reached after waiting for it (see waitForRV), as Kubernetes words it.
func errTooLargeRV(rv, current int64) *meta.StatusError {
	err := meta.NewTimeout(fmt.Sprintf("Too large resource version: %d, current: %d", rv, current), 1)
	err.ErrStatus.Details.Causes = []meta.StatusCause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}}
	return err
}

// errBadRV is the 400 for a resourceVersion that is not a number.
func errBadRV(rv string) *meta.StatusError {
	// Worded as kube-apiserver words it, strconv's error and all.
	why := "value out of range"
	if _, err := strconv.ParseUint(rv, 10, 64); err != nil {
		why = err.Error()
	}
	return meta.NewBadRequest(fmt.Sprintf("invalid resource version: resourceVersion: Invalid value: %q: %s", rv, why))
}

// errInvalidOptions is the 422 for contradictory list or watch options.
func errInvalidOptions(errs meta.FieldErrors) error {
	return errs.ToError(meta.GroupKind{Group: "meta.k8s.io", Kind: "ListOptions"}, "")
}

// errNamespaceRequired is the 400 for a request by name, or a list-less
// write, on a namespaced resource through a client without a namespace.
func errNamespaceRequired(info meta.KindInfo) *meta.StatusError {
	return meta.NewBadRequest(fmt.Sprintf("%s is namespaced: set metadata.namespace or use Namespace(ns) on the client", info.GroupResource()))
}

// errClusterScoped is the 400 for a namespaced client of a cluster-scoped
// resource.
func errClusterScoped(info meta.KindInfo, ns string) *meta.StatusError {
	return meta.NewBadRequest(fmt.Sprintf("%s is cluster-scoped: the namespace %q is not allowed; use a client without Namespace", info.GroupResource(), ns))
}

// errEmptyName is the 400 for a request by name with no name.
func errEmptyName() *meta.StatusError {
	return meta.NewBadRequest("resource name may not be empty")
}

// preconditionError words a failed precondition as Kubernetes does (with a
// capital letter, which Go style discourages for error strings).
type preconditionError string

func (e preconditionError) Error() string { return string(e) }
