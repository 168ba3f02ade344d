package apiextensions

import (
	"slices"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions/cel"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Group, Version and the resource of CustomResourceDefinitions.
const (
	Group   = "apiextensions.k8s.io"
	Version = "v1"
)

// Resource is where definitions are served:
// /apis/apiextensions.k8s.io/v1/customresourcedefinitions.
var Resource = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "customresourcedefinitions"}

// FinalizerCleanup holds a definition being deleted until its objects are
// gone, as on the real server.
const FinalizerCleanup = "customresourcecleanup.apiextensions.k8s.io"

// Kind returns the CustomResourceDefinition kind as a scheme registers
// it: cluster-scoped, with a status subresource, its short names (crd,
// crds) and the real server's rules for a definition (see [Install],
// which also registers it).
func Kind() meta.KindInfo {
	return meta.KindInfo{
		Group: Group, Version: Version, Kind: "CustomResourceDefinition", Resource: Resource.Resource,
		New:        func() meta.Object { return &CustomResourceDefinition{} },
		Singular:   "customresourcedefinition",
		ShortNames: []string{"crd", "crds"},
		Categories: []string{"api-extensions"},
		Validate:   meta.ValidateAs(validateCRD),
		ValidateUpdate: func(obj, old meta.Object) meta.FieldErrors {
			return validateCRDUpdate(obj.(*CustomResourceDefinition), old.(*CustomResourceDefinition))
		},
		Normalize:      normalizeCRD,
		BeforeDelete:   beforeDelete,
		PrinterColumns: crdColumns,
	}
}

// crdColumns are kube-apiserver's columns for definitions (kubectl get
// crd; -o wide adds the last four).
var crdColumns = []meta.PrinterColumn{
	{Name: "Scope", Type: "string", Description: "Cluster/Namespaced", Value: crdCell(func(c *CustomResourceDefinition) any { return string(c.Spec.Scope) })},
	{Name: "Versions", Type: "string", Description: "Served versions", Value: crdCell(servedVersions)},
	{Name: "Created At", Type: "date", Value: crdCell(func(c *CustomResourceDefinition) any {
		return c.CreationTimestamp.UTC().Format(time.RFC3339)
	})},
	{Name: "Group", Type: "string", Priority: 1, Value: crdCell(func(c *CustomResourceDefinition) any { return c.Spec.Group })},
	{Name: "Kind", Type: "string", Priority: 1, Value: crdCell(func(c *CustomResourceDefinition) any { return c.Spec.Names.Kind })},
	{Name: "ShortNames", Type: "string", Priority: 1, Value: crdCell(func(c *CustomResourceDefinition) any {
		return strings.Join(c.Spec.Names.ShortNames, ",")
	})},
	{Name: "Established", Type: "boolean", Priority: 1, Value: crdCell(func(c *CustomResourceDefinition) any { return c.IsTrue(Established) })},
}

func crdCell(f func(*CustomResourceDefinition) any) func(meta.Object) any {
	return func(obj meta.Object) any { return f(obj.(*CustomResourceDefinition)) }
}

// servedVersions lists the served versions, the storage version marked:
// "v1beta1,v1(storage)".
func servedVersions(c *CustomResourceDefinition) any {
	var out []string
	for _, v := range c.Spec.Versions {
		switch {
		case v.Storage:
			out = append(out, v.Name+"(storage)")
		case v.Served:
			out = append(out, v.Name)
		}
	}
	return strings.Join(out, ",")
}

// normalizeCRD applies the real server's defaults to a definition:
// singular and listKind names, conversion None, and the storage version
// in status.storedVersions.
func normalizeCRD(obj, _ meta.Object) ([]string, error) {
	crd := obj.(*CustomResourceDefinition)
	n := &crd.Spec.Names
	if n.Singular == "" {
		n.Singular = strings.ToLower(n.Kind)
	}
	if n.ListKind == "" && n.Kind != "" {
		n.ListKind = n.Kind + "List"
	}
	if crd.Spec.Conversion == nil {
		crd.Spec.Conversion = &CustomResourceConversion{Strategy: NoneConverter}
	}
	if v := crd.StorageVersion(); v != "" && !slices.Contains(crd.Status.StoredVersions, v) {
		crd.Status.StoredVersions = append(crd.Status.StoredVersions, v)
	}
	return nil, nil
}

// beforeDelete holds a definition being deleted with the cleanup
// finalizer, and says so in a Terminating condition, in the same write,
// as the real server's registry does; the controller then deletes its
// objects and lets it go.
func beforeDelete(obj meta.Object) {
	crd := obj.(*CustomResourceDefinition)
	if crd.DeletionTimestamp != nil {
		return
	}
	if !slices.Contains(crd.Finalizers, FinalizerCleanup) {
		crd.Finalizers = append(crd.Finalizers, FinalizerCleanup)
	}
	// Marked here, as the registry of definitions marks it: without a
	// grace period, and without moving the generation.
	now := meta.NewTime(time.Now())
	crd.DeletionTimestamp = &now
	setCondition(crd, Terminating, ConditionTrue, "InstanceDeletionPending",
		"CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon", now.Time)
}

// setCondition sets a condition, keeping its transition time if its
// status does not change.
func setCondition(crd *CustomResourceDefinition, t ConditionType, status ConditionStatus, reason, msg string, now time.Time) {
	c := CustomResourceDefinitionCondition{Type: t, Status: status, Reason: reason, Message: msg, LastTransitionTime: meta.NewTime(now)}
	if old := crd.Condition(t); old != nil {
		if old.Status == status {
			c.LastTransitionTime = old.LastTransitionTime
		}
		*old = c
		return
	}
	crd.Status.Conditions = append(crd.Status.Conditions, c)
}

// compileRules compiles the CEL rules of a schema, for the errors of
// rules that do not compile.
func compileRules(p *JSONSchemaProps, at string) meta.FieldErrors {
	s, err := structuralOf(p)
	if err != nil {
		return nil // reported by validateDefaults
	}
	_, errs := cel.Compile(s, at)
	return errs
}
