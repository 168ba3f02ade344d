package fieldmanager

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// managed is one entry of metadata.managedFields, with its fields as a
// set.
type managed struct {
	meta.ManagedFieldsEntry // FieldsV1 unused: see set
	set                     fieldSet
}

// sameManager reports whether a and b are the same manager, as Kubernetes'
// manager identifier says: name, operation, subresource, and for Update
// also the apiVersion.
func sameManager(a, b meta.ManagedFieldsEntry) bool {
	return a.Manager == b.Manager && a.Operation == b.Operation && a.Subresource == b.Subresource &&
		(a.Operation == meta.ManagedFieldsOperationApply || a.APIVersion == b.APIVersion)
}

// managers is an object's metadata.managedFields, decoded.
type managers []*managed

// decodeManagers reads metadata.managedFields; an entry it cannot read is
// a 400 naming it.
func decodeManagers(entries []meta.ManagedFieldsEntry) (managers, error) {
	out := make(managers, 0, len(entries))
	for i, e := range entries {
		set, err := decodeFields(e.FieldsV1)
		if err != nil {
			return nil, meta.NewBadRequest(fmt.Sprintf("metadata.managedFields[%d].fieldsV1: %v", i, err))
		}
		e.FieldsV1 = nil
		out = append(out, &managed{ManagedFieldsEntry: e, set: set})
	}
	return out, nil
}

// find returns the entry of the manager id, or nil.
func (ms managers) find(id meta.ManagedFieldsEntry) *managed {
	for _, m := range ms {
		if sameManager(m.ManagedFieldsEntry, id) {
			return m
		}
	}
	return nil
}

// put sets the fields of the manager id, stamped now.
func (ms managers) put(id meta.ManagedFieldsEntry, set fieldSet, now time.Time) managers {
	t := meta.NewTime(now)
	id.Time, id.FieldsType = &t, "FieldsV1"
	if m := ms.find(id); m != nil {
		m.ManagedFieldsEntry, m.set = id, set
		return ms
	}
	return append(ms, &managed{ManagedFieldsEntry: id, set: set})
}

// owned returns every field some manager owns.
func (ms managers) owned() fieldSet {
	out := fieldSet{}
	for _, m := range ms {
		out = out.union(m.set)
	}
	return out
}

// encode writes the managers back as metadata.managedFields, dropping
// those left with no fields, in the real server's order: by operation
// (Apply first), time, manager, apiVersion, subresource.
func (ms managers) encode() []meta.ManagedFieldsEntry {
	var out []meta.ManagedFieldsEntry
	for _, m := range ms {
		if len(m.set) == 0 {
			continue
		}
		e := m.ManagedFieldsEntry
		e.FieldsV1 = encodeFields(m.set)
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(p, q meta.ManagedFieldsEntry) int {
		return cmp.Or(cmp.Compare(p.Operation, q.Operation), cmp.Compare(unix(p.Time), unix(q.Time)),
			cmp.Compare(p.Manager, q.Manager), cmp.Compare(p.APIVersion, q.APIVersion),
			cmp.Compare(p.Subresource, q.Subresource))
	})
	return out
}

func unix(t *meta.Time) int64 {
	if t == nil {
		return 0
	}
	return t.Unix()
}

// untracked reports whether no manager owns the field path: the object's
// identity and what the server sets (structured-merge-diff's stripped
// metadata), and the fields a write does not reach — status for the
// main resource, everything else for the status subresource.
func untracked(status bool) func(elems []string) bool {
	return func(elems []string) bool {
		switch elems[0] {
		case "f:apiVersion", "f:kind":
			return true
		case "f:metadata":
			if len(elems) == 1 {
				return true
			}
			switch elems[1] {
			case "f:name", "f:namespace", "f:uid", "f:resourceVersion", "f:generation", "f:creationTimestamp",
				"f:deletionTimestamp", "f:deletionGracePeriodSeconds", "f:managedFields", "f:selfLink":
				return true
			}
		}
		return (elems[0] == "f:status") != status
	}
}

// changes compares the object trees a and b, leaving out untracked
// fields.
func (fs fieldSchema) changes(a, b any, status bool) *comparison {
	c := newComparison()
	fs.compare(a, b, "", nil, c)
	drop := untracked(status)
	c.added, c.modified, c.removed = c.added.without(drop), c.modified.without(drop), c.removed.without(drop)
	return c
}

// update records a write by manager id that turned live into next
// (structured-merge-diff's Updater.Update): the writer takes every field
// it added or changed from the others, fields it removed leave every
// manager, and nothing ever conflicts.
func (ms managers) update(c *comparison, id meta.ManagedFieldsEntry, now time.Time) managers {
	if c.empty() {
		return ms
	}
	ms = ms.takeFrom(id, c.changed().union(c.removed))
	var prev fieldSet
	if m := ms.find(id); m != nil {
		prev = m.set
	}
	return ms.put(id, prev.union(c.changed()).minus(c.removed), now)
}

// takeFrom removes fields from every manager but id.
func (ms managers) takeFrom(id meta.ManagedFieldsEntry, fields fieldSet) managers {
	for _, m := range ms {
		if !sameManager(m.ManagedFieldsEntry, id) {
			m.set = m.set.minus(fields)
		}
	}
	return ms
}

// objectTree returns obj as decoded JSON, numbers as json.Number.
func objectTree(obj any) (map[string]any, error) {
	b, err := jsonenc.Marshal(obj)
	if err != nil {
		return nil, meta.NewInternalError(err)
	}
	return decodeTree(b)
}

// decodeTree decodes the JSON object b, numbers as json.Number: by
// jsonenc when it can, without encoding/json's reflection.
func decodeTree(b []byte) (map[string]any, error) {
	if tree, ok := jsonenc.DecodeTree(b); ok {
		return tree, nil
	}
	var tree map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return tree, nil
}
