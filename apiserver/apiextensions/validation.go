package apiextensions

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// crdKind names the definitions in errors:
// CustomResourceDefinition.apiextensions.k8s.io "cakes.bakery" is invalid.
var crdKind = meta.GroupKind{Group: Group, Kind: "CustomResourceDefinition"}

// validateCRD checks a definition as kube-apiserver's apiextensions
// server does on create, with its field paths and messages; see
// validation_schema.go for the schema.
func validateCRD(crd *CustomResourceDefinition) meta.FieldErrors {
	var errs meta.FieldErrors
	if want := crd.Spec.Names.Plural + "." + crd.Spec.Group; crd.Name != want {
		errs.Invalid("metadata.name", crd.Name, `must be spec.names.plural+"."+spec.group`)
	}
	errs = append(errs, validateSpec(&crd.Spec)...)
	errs = append(errs, validateNames(&crd.Status.AcceptedNames, "status.acceptedNames")...)
	return append(errs, validateStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions)...)
}

// validateCRDUpdate checks an update of old to crd: everything
// validateCRD checks, and that the group, and once the kind is served
// its scope, do not change.
func validateCRDUpdate(crd, old *CustomResourceDefinition) meta.FieldErrors {
	errs := validateCRD(crd)
	if crd.Spec.Group != old.Spec.Group {
		errs.Invalid("spec.group", crd.Spec.Group, "field is immutable")
	}
	if old.IsTrue(Established) && crd.Spec.Scope != old.Spec.Scope {
		errs.Invalid("spec.scope", string(crd.Spec.Scope), "field is immutable")
	}
	return errs
}

func validateSpec(spec *CustomResourceDefinitionSpec) meta.FieldErrors {
	var errs meta.FieldErrors
	switch {
	case spec.Group == "":
		errs.Required("spec.group", "")
	case len(meta.IsDNS1123Subdomain(spec.Group)) > 0:
		errs.Invalid("spec.group", spec.Group, strings.Join(meta.IsDNS1123Subdomain(spec.Group), ","))
	case !strings.Contains(spec.Group, "."):
		errs.Invalid("spec.group", spec.Group, "should be a domain with at least one dot")
	}
	errs = append(errs, enumString("spec.scope", string(spec.Scope), []string{string(ClusterScoped), string(NamespaceScoped)})...)
	errs = append(errs, validateVersions(spec)...)
	for _, f := range []struct{ name, value string }{
		{"plural", spec.Names.Plural}, {"singular", spec.Names.Singular}, {"kind", spec.Names.Kind}, {"listKind", spec.Names.ListKind},
	} {
		if f.value == "" {
			errs.Required("spec.names."+f.name, "")
		}
	}
	errs = append(errs, validateNames(&spec.Names, "spec.names")...)
	errs = append(errs, validateConversion(spec.Conversion)...)
	if spec.PreserveUnknownFields {
		errs.Invalid("spec.preserveUnknownFields", true,
			"cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")
	}
	return errs
}

// enumString checks a required string that takes one of a few values.
func enumString(field, value string, accepted []string) meta.FieldErrors {
	var errs meta.FieldErrors
	switch {
	case value == "":
		errs.Required(field, "")
	case !slices.Contains(accepted, value):
		errs.NotSupported(field, value, accepted)
	}
	return errs
}

// validateVersions checks the versions: valid and unique names, exactly
// one storage version, a schema each, and each version's schema,
// subresources, columns and selectable fields, named where the real
// server names them (see versionPaths).
func validateVersions(spec *CustomResourceDefinitionSpec) meta.FieldErrors {
	var errs meta.FieldErrors
	storage, names := 0, map[string]bool{}
	unique := true
	paths := versionPaths(spec.Versions)
	for i, v := range spec.Versions {
		at := fmt.Sprintf("spec.versions[%d]", i)
		if v.Storage {
			storage++
		}
		if names[v.Name] {
			unique = false
		}
		names[v.Name] = true
		for _, msg := range meta.IsDNS1035Label(v.Name) {
			errs.Invalid(at+".name", v.Name, msg)
		}
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			errs.Required(at+".schema.openAPIV3Schema", "")
		}
		errs = append(errs, validateVersion(&spec.Versions[i], i == 0, at, paths)...)
	}
	if !unique {
		errs.Invalid("spec.versions", internalVersions(spec.Versions), "must contain unique version names")
	}
	if storage != 1 {
		errs.Invalid("spec.versions", internalVersions(spec.Versions), "must have exactly one version marked as storage version")
	}
	return errs
}

// validateVersion checks one version's parts, each once: a part that
// every version has alike is checked at the first version only, under
// the spec-wide name the real server gives it.
func validateVersion(v *CustomResourceDefinitionVersion, first bool, at string, paths partPaths) meta.FieldErrors {
	var errs meta.FieldErrors
	if p := paths.schema(at); (first || !paths.sameSchema) && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
		errs = append(errs, validateSchemaRoot(v.Schema.OpenAPIV3Schema, p, hasStatus(v))...)
	}
	if p := paths.subresources(at); (first || !paths.sameSubresources) && v.Subresources != nil {
		errs = append(errs, validateSubresources(v.Subresources, p)...)
	}
	if p := paths.columns(at); first || !paths.sameColumns {
		for i, col := range v.AdditionalPrinterColumns {
			errs = append(errs, validateColumn(col, fmt.Sprintf("%s[%d]", p, i))...)
		}
	}
	for i, f := range v.SelectableFields {
		errs = append(errs, validateSelectableField(v, f, fmt.Sprintf("%s.selectableFields[%d].jsonPath", at, i))...)
	}
	return errs
}

func hasStatus(v *CustomResourceDefinitionVersion) bool {
	return v.Subresources != nil && v.Subresources.Status != nil
}

// partPaths says where the real server names a version's schema,
// subresources and columns: like its internal form, which moves a part
// that every version has alike up to the spec (spec.validation,
// spec.subresources, spec.additionalPrinterColumns).
type partPaths struct {
	sameSchema, sameSubresources, sameColumns bool
}

func versionPaths(vs []CustomResourceDefinitionVersion) partPaths {
	p := partPaths{sameSchema: true, sameSubresources: true, sameColumns: true}
	for _, v := range vs {
		p.sameSchema = p.sameSchema && reflect.DeepEqual(v.Schema, vs[0].Schema)
		p.sameSubresources = p.sameSubresources && reflect.DeepEqual(v.Subresources, vs[0].Subresources)
		p.sameColumns = p.sameColumns && reflect.DeepEqual(v.AdditionalPrinterColumns, vs[0].AdditionalPrinterColumns)
	}
	return p
}

func (p partPaths) schema(at string) string {
	if p.sameSchema {
		return "spec.validation.openAPIV3Schema"
	}
	return at + ".schema.openAPIV3Schema"
}

func (p partPaths) subresources(at string) string {
	if p.sameSubresources {
		return "spec.subresources"
	}
	return at + ".subresources"
}

func (p partPaths) columns(at string) string {
	if p.sameColumns {
		return "spec.additionalPrinterColumns"
	}
	return at + ".additionalPrinterColumns"
}

// internalVersion is a version as the real server prints it in an
// error: its internal Go type's field names, the parts every version
// has alike moved out (so null).
type internalVersion struct {
	Name                     string
	Served, Storage          bool
	Deprecated               bool
	DeprecationWarning       *string
	Schema                   any
	Subresources             any
	AdditionalPrinterColumns any
	SelectableFields         any
}

func internalVersions(vs []CustomResourceDefinitionVersion) []internalVersion {
	p := versionPaths(vs)
	out := make([]internalVersion, 0, len(vs))
	for _, v := range vs {
		iv := internalVersion{Name: v.Name, Served: v.Served, Storage: v.Storage, Deprecated: v.Deprecated, DeprecationWarning: v.DeprecationWarning}
		if !p.sameSchema {
			iv.Schema = v.Schema
		}
		if !p.sameSubresources {
			iv.Subresources = v.Subresources
		}
		if !p.sameColumns && v.AdditionalPrinterColumns != nil {
			iv.AdditionalPrinterColumns = v.AdditionalPrinterColumns
		}
		out = append(out, iv)
	}
	return out
}

// validateNames checks the kind's names (spec.names or
// status.acceptedNames), leaving out the empty ones.
func validateNames(n *CustomResourceDefinitionNames, at string) meta.FieldErrors {
	var errs meta.FieldErrors
	label := func(field, value, prefix string) {
		if value == "" {
			return
		}
		if msgs := meta.IsDNS1035Label(strings.ToLower(value)); len(msgs) > 0 {
			errs.Invalid(at+"."+field, value, prefix+strings.Join(msgs, ","))
		}
	}
	label("plural", n.Plural, "")
	label("singular", n.Singular, "")
	label("kind", n.Kind, "may have mixed case, but should otherwise match: ")
	label("listKind", n.ListKind, "may have mixed case, but should otherwise match: ")
	for i, s := range n.ShortNames {
		for _, msg := range meta.IsDNS1035Label(s) {
			errs.Invalid(fmt.Sprintf("%s.shortNames[%d]", at, i), s, msg)
		}
	}
	if n.Kind != "" && n.Kind == n.ListKind {
		errs.Invalid(at+".listKind", n.ListKind, "kind and listKind may not be the same")
	}
	for i, c := range n.Categories {
		for _, msg := range meta.IsDNS1035Label(c) {
			errs.Invalid(fmt.Sprintf("%s.categories[%d]", at, i), c, msg)
		}
	}
	return errs
}

func validateStoredVersions(stored []string, versions []CustomResourceDefinitionVersion) meta.FieldErrors {
	var errs meta.FieldErrors
	if len(stored) == 0 {
		errs.Invalid("status.storedVersions", nil, "must have at least one stored version")
		return errs
	}
	for _, v := range versions {
		if v.Storage && !slices.Contains(stored, v.Name) {
			errs.Invalid("status.storedVersions", stored, "must have the storage version "+v.Name)
		}
	}
	for i, s := range stored {
		if !slices.ContainsFunc(versions, func(v CustomResourceDefinitionVersion) bool { return v.Name == s }) {
			errs.Invalid(fmt.Sprintf("status.storedVersions[%d]", i), s, fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, "+
				"and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", s))
		}
	}
	return errs
}

func validateConversion(c *CustomResourceConversion) meta.FieldErrors {
	if c == nil {
		return nil
	}
	errs := enumString("spec.conversion.strategy", string(c.Strategy), []string{string(NoneConverter), string(WebhookConverter)})
	if c.Strategy == WebhookConverter && (c.Webhook == nil || c.Webhook.ClientConfig == nil) {
		errs.Required("spec.conversion.webhookClientConfig", "required when strategy is set to Webhook")
	}
	if c.Strategy != WebhookConverter && c.Webhook != nil {
		errs.Forbidden("spec.conversion.webhookClientConfig", "should not be set when strategy is not set to Webhook")
	}
	return errs
}
