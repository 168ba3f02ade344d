package fieldmanager

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// CauseTypeFieldManagerConflict is the cause of a 409 from server-side
// apply: the field is owned by another manager (metav1's
// CauseTypeFieldManagerConflict).
const CauseTypeFieldManagerConflict meta.CauseType = "FieldManagerConflict"

// conflict is one field that manager owns and an apply would change.
type conflict struct {
	manager *managed
	path    string
}

// conflictsIn returns the 409 Conflict for an apply by id that changes
// fields other managers own, each compared in its manager's version (v);
// with force the others just lose them (the caller takes them away), and
// it returns nil.
func (ms managers) conflictsIn(v *views, id meta.ManagedFieldsEntry, force bool) error {
	if force {
		return nil
	}
	var found []conflict
	for _, m := range ms {
		if sameManager(m.ManagedFieldsEntry, id) {
			continue
		}
		c, err := v.in(m.APIVersion)
		if err != nil {
			return err
		}
		for _, p := range m.set.intersect(c.changed()).sorted() {
			found = append(found, conflict{manager: m, path: p})
		}
	}
	if len(found) == 0 {
		return nil
	}
	causes := make([]meta.StatusCause, len(found))
	for i, c := range found {
		causes[i] = meta.StatusCause{Type: CauseTypeFieldManagerConflict,
			Message: "conflict with " + managerString(c.manager.ManagedFieldsEntry), Field: pathString(c.path)}
	}
	return meta.NewStatusError(http.StatusConflict, meta.StatusReasonConflict, conflictMessage(found), &meta.StatusDetails{Causes: causes})
}

// conflictMessage words the conflicts as the real server does, character
// for character: kubectl prints it.
func conflictMessage(found []conflict) string {
	if len(found) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %s: %s",
			managerString(found[0].manager.ManagedFieldsEntry), pathString(found[0].path))
	}
	byManager := map[string][]string{}
	for _, c := range found {
		name := managerString(c.manager.ManagedFieldsEntry)
		byManager[name] = append(byManager[name], pathString(c.path))
	}
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(byManager)) {
		lines = append(lines, fmt.Sprintf("conflicts with %s:", name))
		for _, p := range byManager[name] {
			lines = append(lines, "- "+p)
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(found), strings.Join(lines, "\n"))
}

// managerString names a manager as conflict messages do: "name", with
// its subresource, and for an updater the apiVersion it wrote (the real
// server names managers by an identifier without the time).
func managerString(e meta.ManagedFieldsEntry) string {
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, e.Subresource)
	}
	if e.Operation == meta.ManagedFieldsOperationUpdate {
		s = fmt.Sprintf("%s using %s", s, e.APIVersion)
	}
	return s
}

// splitPath splits a field path into its elements.
func splitPath(p string) []string { return strings.Split(p, pathSep) }
