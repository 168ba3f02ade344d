package httpapi

import (
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// printer is how kube-apiserver prints a built-in kind in a Table (its
// printers in pkg/printers/internalversion): the columns, and each
// object's cells.
type printer struct {
	columns []tableColumnDefinition
	cells   func(obj meta.Object, now time.Time) []any
}

// printerFor returns the printer of a built-in kind: Event (see
// table_event.go), Lease (NAME HOLDER AGE) and Namespace (NAME STATUS
// AGE). Other kinds get the generic columns of [columns].
func printerFor(info meta.KindInfo) (printer, bool) {
	switch obj := info.New(); {
	case isEvent(info):
		return printer{eventColumns, func(o meta.Object, now time.Time) []any { return eventCells(o.(*builtin.Event), now) }}, true
	case info.Group == "coordination.k8s.io" && isType[*builtin.Lease](obj):
		return printer{leaseColumns, leaseCells}, true
	case info.Group == "" && isType[*builtin.Namespace](obj):
		return printer{namespaceColumns, namespaceCells}, true
	}
	return printer{}, false
}

func isType[T any](v any) bool {
	_, ok := v.(T)
	return ok
}

// The columns kube-apiserver's printers start and end built-in kinds'
// Tables with: the name, and the age (a string, as those printers write
// it, where a custom resource's Age column is a date).
var (
	nameColumn = tableColumnDefinition{Name: "Name", Type: "string", Format: "name", Description: "Name must be unique within a namespace. " +
		"Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. " +
		"Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. " +
		"More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"}
	ageColumn = tableColumnDefinition{Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp representing the server time when this object was created. " +
		"It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. " +
		"It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. " +
		"More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"}
)

var leaseColumns = []tableColumnDefinition{nameColumn, {Name: "Holder", Type: "string",
	Description: "holderIdentity contains the identity of the holder of a current lease. " +
		"If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field."},
	ageColumn}

// leaseCells is a Lease's row: name, holder (empty for none), age.
func leaseCells(obj meta.Object, now time.Time) []any {
	l := obj.(*builtin.Lease)
	holder := ""
	if l.Spec.HolderIdentity != nil {
		holder = *l.Spec.HolderIdentity
	}
	return []any{l.Name, holder, age(l.CreationTimestamp, now)}
}

var namespaceColumns = []tableColumnDefinition{nameColumn,
	{Name: "Status", Type: "string", Description: "The status of the namespace"}, ageColumn}

// namespaceCells is a Namespace's row: name, phase, age.
func namespaceCells(obj meta.Object, now time.Time) []any {
	n := obj.(*builtin.Namespace)
	return []any{n.Name, n.Status.Phase, age(n.CreationTimestamp, now)}
}
