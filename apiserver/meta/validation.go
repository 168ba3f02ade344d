package meta

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Name and label rules, as Kubernetes checks them. Each Is* function
// returns nil for a valid value, or the list of what is wrong, worded as
// the Kubernetes API server words it, ready to go into [FieldErrors.Invalid].

// Length limits Kubernetes puts on names, label keys and label values.
const (
	DNS1123LabelMaxLength     = 63
	DNS1123SubdomainMaxLength = 253
	DNS1035LabelMaxLength     = 63
	LabelKeyNameMaxLength     = 63
	LabelValueMaxLength       = 63
	// TotalAnnotationSizeLimit caps the bytes of all annotation keys and
	// values of one object together (256 KiB).
	TotalAnnotationSizeLimit = 256 * 1024
)

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + labelKeyFmt + ")?"

	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelMsg     = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	labelKeyMsg         = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)

// regexError explains a failed pattern the Kubernetes way: what is
// allowed, examples, and the regular expression itself.
func regexError(msg, re string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	b.WriteString(" (e.g. ")
	for i, ex := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + ex + "', ")
	}
	b.WriteString("regex used for validation is '" + re + "')")
	return b.String()
}

func maxLenError(n int, unit string) string {
	return fmt.Sprintf("must be no more than %d %s", n, unit)
}

// IsDNS1123Label checks value is an RFC 1123 label: at most 63 lowercase
// alphanumerics or '-', starting and ending with an alphanumeric, no dots.
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, maxLenError(DNS1123LabelMaxLength, "characters"))
	}
	if !matchDNS1123Label(value) {
		if matchDNS1123Subdomain(value) {
			errs = append(errs, "must not contain dots") // a subdomain, so only dots are wrong
		} else {
			errs = append(errs, regexError(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// IsDNS1123Subdomain checks value is an RFC 1123 subdomain: at most 253
// characters, dot-separated RFC 1123 labels. Object names must be one.
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLenError(DNS1123SubdomainMaxLength, "characters"))
	}
	if !matchDNS1123Subdomain(value) {
		errs = append(errs, regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1035Label checks value is an RFC 1035 label: like an RFC 1123 label
// but starting with a letter. Resource names (plurals) and versions must
// be one.
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > DNS1035LabelMaxLength {
		errs = append(errs, maxLenError(DNS1035LabelMaxLength, "characters"))
	}
	if !matchDNS1035Label(value) {
		errs = append(errs, regexError(dns1035LabelMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsLabelKey checks value is a label (or annotation) key: an optional DNS
// subdomain prefix and "/", then a name of at most 63 alphanumerics, '-',
// '_' or '.', starting and ending with an alphanumeric
// ("menu.example.com/section", "table").
func IsLabelKey(value string) []string {
	var errs []string
	prefix, name, hasPrefix := strings.Cut(value, "/")
	if !hasPrefix {
		name = prefix
	}
	if strings.Contains(name, "/") {
		return []string{"a valid label key " + regexError(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if hasPrefix {
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, msg := range IsDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+msg)
			}
		}
	}
	switch {
	case name == "":
		errs = append(errs, "name part must be non-empty")
	case len(name) > LabelKeyNameMaxLength:
		errs = append(errs, "name part "+maxLenError(LabelKeyNameMaxLength, "bytes"))
	}
	if !matchLabelName(name) {
		errs = append(errs, "name part "+regexError(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsLabelValue checks value is a label value: empty, or at most 63
// alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric.
func IsLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, maxLenError(LabelValueMaxLength, "bytes"))
	}
	if !matchLabelValue(value) {
		errs = append(errs, regexError(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// FieldErrors collects what is wrong with an object, one [StatusCause] per
// problem, each naming its field by JSON path ("metadata.name",
// "spec.dish"), like Kubernetes' field.ErrorList. Validate everything,
// then turn the list into one 422 Invalid error:
//
//	var errs meta.FieldErrors
//	if order.Spec.Dish == "" {
//		errs.Required("spec.dish", "")
//	}
//	errs = append(errs, meta.ValidateName("metadata.name", order.Name)...)
//	if err := errs.ToError(gk, order.Name); err != nil {
//		return err
//	}
//
// The zero value is an empty list, ready to use.
type FieldErrors []StatusCause

// Invalid records that field holds value, which is wrong because of detail.
// Its message reads `Invalid value: "T1": <detail>`.
func (e *FieldErrors) Invalid(field string, value any, detail string) {
	e.add(CauseTypeFieldValueInvalid, field, "Invalid value: "+formatValue(value), detail)
}

// Required records that field must be set. Its message reads
// `Required value` or `Required value: <detail>`.
func (e *FieldErrors) Required(field, detail string) {
	e.add(CauseTypeFieldValueRequired, field, "Required value", detail)
}

// Forbidden records that field may not be set or changed (e.g. adding a
// finalizer to an object being deleted). Its message reads
// `Forbidden: <detail>`.
func (e *FieldErrors) Forbidden(field, detail string) {
	e.add(CauseTypeFieldValueForbidden, field, "Forbidden", detail)
}

// NotSupported records that field holds value, which is not one of
// supported. Its message reads
// `Unsupported value: "x": supported values: "a", "b"`.
func (e *FieldErrors) NotSupported(field string, value any, supported []string) {
	quoted := make([]string, len(supported))
	for i, s := range supported {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	e.add(CauseTypeFieldValueNotSupported, field, "Unsupported value: "+formatValue(value),
		"supported values: "+strings.Join(quoted, ", "))
}

// CauseTypeFieldValueTooLong says a value is over its size limit. It joins
// the cause types in status.go, as Kubernetes' FieldValueTooLong.
const CauseTypeFieldValueTooLong CauseType = "FieldValueTooLong"

// TooLong records that field is over maxBytes; the value itself is left
// out of the message, which reads `Too long: may not be more than N bytes`.
func (e *FieldErrors) TooLong(field string, maxBytes int) {
	e.add(CauseTypeFieldValueTooLong, field, "Too long", fmt.Sprintf("may not be more than %d bytes", maxBytes))
}

// NotFound records that field refers to value, which does not exist. Its
// message reads `Not found: "x"`.
func (e *FieldErrors) NotFound(field string, value any) {
	e.add(CauseTypeFieldValueNotFound, field, "Not found: "+formatValue(value), "")
}

func (e *FieldErrors) add(t CauseType, field, body, detail string) {
	if detail != "" {
		body += ": " + detail
	}
	*e = append(*e, StatusCause{Type: t, Message: body, Field: field})
}

// formatValue prints a bad value the way Kubernetes does: strings quoted,
// numbers and booleans bare, anything else as JSON.
func formatValue(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("%q", v)
	case int, int32, int64, float32, float64, bool:
		return fmt.Sprint(v)
	}
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%#v", v)
}

// ToError returns nil when e is empty, or else the 422 Invalid error for
// object name of kind gk that lists every cause (see [NewInvalid]).
func (e FieldErrors) ToError(gk GroupKind, name string) error {
	if len(e) == 0 {
		return nil
	}
	return NewInvalid(gk, name, e)
}

// ValidateName checks an object name (a DNS-1123 subdomain) held in field,
// one cause per problem, as Kubernetes checks metadata.name.
func ValidateName(field, name string) FieldErrors {
	var errs FieldErrors
	if name == "" {
		errs.Required(field, "name or generateName is required")
		return errs
	}
	for _, msg := range IsDNS1123Subdomain(name) {
		errs.Invalid(field, name, msg)
	}
	return errs
}

// ValidateNamespace checks the namespace ns of an object held in field
// (usually "metadata.namespace"): empty (a cluster-scoped object), or an
// RFC 1123 label, as kube-apiserver's ValidateObjectMeta checks it.
func ValidateNamespace(field, ns string) FieldErrors {
	var errs FieldErrors
	if ns != "" {
		for _, msg := range IsDNS1123Label(ns) {
			errs.Invalid(field, ns, msg)
		}
	}
	return errs
}

// ValidateLabels checks every key and value of labels held in field
// (usually "metadata.labels"), in key order so that messages are stable.
// Every cause names field itself, as Kubernetes' do: the invalid key or
// value is in the message, not in the path.
func ValidateLabels(field string, labels map[string]string) FieldErrors {
	if len(labels) == 0 {
		return nil
	}
	valid := true
	for k, v := range labels { // the common case, without sorting the keys
		valid = valid && len(IsLabelKey(k)) == 0 && len(IsLabelValue(v)) == 0
	}
	if valid {
		return nil
	}
	var errs FieldErrors // in key order, so that the messages always come alike
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		for _, msg := range IsLabelKey(k) {
			errs.Invalid(field, k, msg)
		}
		for _, msg := range IsLabelValue(labels[k]) {
			errs.Invalid(field, labels[k], msg)
		}
	}
	return errs
}

// ValidateAnnotations checks annotations held in field (usually
// "metadata.annotations") as Kubernetes does: every key must be a valid
// label key once lowercased, and keys and values together must fit in
// [TotalAnnotationSizeLimit] bytes. Values may hold anything.
func ValidateAnnotations(field string, annotations map[string]string) FieldErrors {
	if len(annotations) == 0 {
		return nil
	}
	total, valid := 0, true
	for k, v := range annotations { // the common case, without sorting the keys
		total += len(k) + len(v)
		valid = valid && len(IsLabelKey(strings.ToLower(k))) == 0
	}
	if valid && total <= TotalAnnotationSizeLimit {
		return nil
	}
	var errs FieldErrors // in key order, so that the messages always come alike
	total = 0
	for _, k := range slices.Sorted(maps.Keys(annotations)) {
		for _, msg := range IsLabelKey(strings.ToLower(k)) {
			errs.Invalid(field, k, msg)
		}
		total += len(k) + len(annotations[k])
	}
	if total > TotalAnnotationSizeLimit {
		errs.TooLong(field, TotalAnnotationSizeLimit)
	}
	return errs
}

// ValidateOwnerReferences checks metadata.ownerReferences as Kubernetes
// does: every reference names its owner's apiVersion, kind, name and uid,
// and at most one is the controller. A reference without a uid could
// never be matched to a living owner, so the garbage collector would
// delete the object at once; it is refused instead.
func ValidateOwnerReferences(field string, refs []OwnerReference) FieldErrors {
	var errs FieldErrors
	controllers := 0
	for i, ref := range refs {
		at := fmt.Sprintf("%s[%d]", field, i)
		for _, f := range []struct{ name, value string }{
			{"apiVersion", ref.APIVersion}, {"kind", ref.Kind}, {"name", ref.Name}, {"uid", ref.UID},
		} {
			if f.value == "" {
				errs.Invalid(at+"."+f.name, f.value, f.name+" must not be empty: use meta.NewControllerRef on the stored owner")
			}
		}
		if ref.Controller != nil && *ref.Controller {
			controllers++
		}
	}
	if controllers > 1 {
		errs.Invalid(field, controllers, "only one reference can have Controller set to true")
	}
	return errs
}

// ValidateFinalizers checks metadata.finalizers as Kubernetes does: each
// is a qualified name (an optional DNS subdomain prefix and "/", then a
// name, like "kitchen.example.com/cleanup"; the cause names its index),
// and the garbage collector's [FinalizerOrphanDependents] and
// [FinalizerDeleteDependents] are not both set.
func ValidateFinalizers(field string, finalizers []string) FieldErrors {
	var errs FieldErrors
	for i, f := range finalizers {
		for _, msg := range IsLabelKey(f) {
			errs.Invalid(fmt.Sprintf("%s[%d]", field, i), f, msg)
		}
	}
	if slices.Contains(finalizers, FinalizerOrphanDependents) && slices.Contains(finalizers, FinalizerDeleteDependents) {
		errs.Invalid(field, finalizers, fmt.Sprintf("finalizer %s and %s cannot be both set",
			FinalizerOrphanDependents, FinalizerDeleteDependents))
	}
	return errs
}

// FinalizerWarnings returns the warnings kube-apiserver sends (as Warning
// headers) when a write adds finalizers: for each one in fins and not in
// old, sorted, whose name has no domain ("cleanup") or no path
// ("example.com") and so may collide with another controller's. The
// garbage collector's finalizers and "kubernetes" are exempt. It is
// advice, not an error: the write goes ahead.
func FinalizerWarnings(fins, old []string) []string {
	var added []string
	for _, f := range fins {
		if !slices.Contains(old, f) && !slices.Contains(added, f) {
			added = append(added, f)
		}
	}
	slices.Sort(added)
	var out []string
	for _, f := range added {
		switch {
		case strings.Contains(f, "/") || f == FinalizerOrphanDependents || f == FinalizerDeleteDependents || f == "kubernetes":
		case strings.Contains(f, "."):
			out = append(out, fmt.Sprintf("metadata.finalizers: %q: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers", f))
		default:
			out = append(out, fmt.Sprintf("metadata.finalizers: %q: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", f))
		}
	}
	return out
}
