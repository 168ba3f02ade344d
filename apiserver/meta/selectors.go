package meta

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// SelectorOperator is how a [LabelRequirement] compares a label, with the
// names Kubernetes gives its selection operators.
type SelectorOperator string

// The operators of the label selector grammar.
const (
	SelectorOpEquals       SelectorOperator = "="     // key=value
	SelectorOpDoubleEquals SelectorOperator = "=="    // key==value, the same as =
	SelectorOpNotEquals    SelectorOperator = "!="    // key!=value, also true when key is absent
	SelectorOpIn           SelectorOperator = "in"    // key in (a,b)
	SelectorOpNotIn        SelectorOperator = "notin" // key notin (a,b), also true when key is absent
	SelectorOpExists       SelectorOperator = "exists"
	SelectorOpDoesNotExist SelectorOperator = "!"  // !key
	SelectorOpGreaterThan  SelectorOperator = "gt" // key>5, integer values only
	SelectorOpLessThan     SelectorOperator = "lt" // key<5, integer values only
)

// LabelRequirement is one comma-separated term of a label selector, e.g.
// "table in (1,2)". Values are sorted and free of duplicates.
type LabelRequirement struct {
	Key      string
	Operator SelectorOperator
	Values   []string
}

// Matches reports whether labels satisfy the requirement. As in
// Kubernetes, != and notin also match objects that lack the key.
func (r LabelRequirement) Matches(labels map[string]string) bool {
	val, ok := labels[r.Key]
	switch r.Operator {
	case SelectorOpEquals, SelectorOpDoubleEquals, SelectorOpIn:
		return ok && slices.Contains(r.Values, val)
	case SelectorOpNotEquals, SelectorOpNotIn:
		return !ok || !slices.Contains(r.Values, val)
	case SelectorOpExists:
		return ok
	case SelectorOpDoesNotExist:
		return !ok
	case SelectorOpGreaterThan, SelectorOpLessThan:
		if !ok || len(r.Values) != 1 {
			return false
		}
		have, err1 := strconv.ParseInt(val, 10, 64)
		want, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return (r.Operator == SelectorOpGreaterThan && have > want) || (r.Operator == SelectorOpLessThan && have < want)
	}
	return false
}

// String writes the requirement back in selector syntax.
func (r LabelRequirement) String() string {
	switch r.Operator {
	case SelectorOpExists:
		return r.Key
	case SelectorOpDoesNotExist:
		return "!" + r.Key
	case SelectorOpIn, SelectorOpNotIn:
		return r.Key + " " + string(r.Operator) + " (" + strings.Join(r.Values, ",") + ")"
	case SelectorOpGreaterThan:
		return r.Key + ">" + strings.Join(r.Values, ",")
	case SelectorOpLessThan:
		return r.Key + "<" + strings.Join(r.Values, ",")
	}
	return r.Key + string(r.Operator) + strings.Join(r.Values, ",")
}

// LabelSelector selects objects by their labels: every requirement must
// hold. It is immutable once parsed and safe for concurrent use. A nil
// *LabelSelector, the zero value and [Everything] match every object.
type LabelSelector struct {
	reqs []LabelRequirement // sorted by key
}

// Everything returns a selector that matches every object.
func Everything() *LabelSelector { return &LabelSelector{} }

// SelectorFromSet returns the selector "k1=v1,k2=v2" that matches objects
// carrying all of set's labels, like Kubernetes' labels.SelectorFromSet.
// It does not validate keys or values.
func SelectorFromSet(set map[string]string) *LabelSelector {
	s := &LabelSelector{}
	for _, k := range slices.Sorted(maps.Keys(set)) {
		s.reqs = append(s.reqs, LabelRequirement{Key: k, Operator: SelectorOpEquals, Values: []string{set[k]}})
	}
	return s
}

// Matches reports whether labels satisfy every requirement.
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return true
	}
	for _, r := range s.reqs {
		if !r.Matches(labels) {
			return false
		}
	}
	return true
}

// Empty reports whether s selects everything.
func (s *LabelSelector) Empty() bool { return s == nil || len(s.reqs) == 0 }

// Requirements returns a copy of the requirements, sorted by key.
func (s *LabelSelector) Requirements() []LabelRequirement {
	if s == nil {
		return nil
	}
	out := make([]LabelRequirement, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = LabelRequirement{Key: r.Key, Operator: r.Operator, Values: slices.Clone(r.Values)}
	}
	return out
}

// String returns the selector in canonical form: requirements sorted by
// key, values sorted, e.g. "!allergy,section=vip,table in (1,2)". Parsing
// it again gives the same selector.
func (s *LabelSelector) String() string {
	if s == nil {
		return ""
	}
	parts := make([]string, len(s.reqs))
	for i, r := range s.reqs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

// ParseLabelSelector parses Kubernetes' label selector syntax:
//
//	section=vip          the label is "vip" ("==" means the same)
//	section!=terrace     the label is not "terrace", or is absent
//	table in (1,2)       the label is one of the values
//	table notin (1,2)    the label is none of the values, or is absent
//	vip                  the label exists
//	!allergy             the label does not exist
//	course>2, course<5   the label is an integer above / below
//
// Requirements are separated by commas and must all hold; spaces around
// tokens are ignored; the empty string selects everything. Keys are an
// optional DNS subdomain prefix and "/" and a name of at most 63
// characters; values may be empty. A malformed selector gives a 400
// BadRequest that says, in Kubernetes' words, what was found where.
func ParseLabelSelector(s string) (*LabelSelector, error) {
	p := &labelParser{toks: lexLabels(s)}
	reqs, err := p.parse()
	if err != nil {
		return nil, NewBadRequest(err.Error())
	}
	slices.SortStableFunc(reqs, func(a, b LabelRequirement) int { return strings.Compare(a.Key, b.Key) })
	return &LabelSelector{reqs: reqs}, nil
}

// newLabelRequirement checks a parsed requirement as Kubernetes'
// labels.NewRequirement does; the key was checked already.
func newLabelRequirement(key string, op SelectorOperator, values []string) (LabelRequirement, error) {
	slices.Sort(values)
	values = slices.Compact(values)
	var errs FieldErrors
	if op == SelectorOpGreaterThan || op == SelectorOpLessThan {
		for i, v := range values {
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				errs.Invalid(fmt.Sprintf("values[%d]", i), v, "for 'Gt', 'Lt' operators, the value must be an integer")
			}
		}
	}
	for i, v := range values {
		if msgs := IsLabelValue(v); len(msgs) > 0 {
			errs.Invalid(fmt.Sprintf("values[%d][%s]", i, key), v, strings.Join(msgs, "; "))
		}
	}
	if len(errs) > 0 {
		return LabelRequirement{}, fmt.Errorf("%s", aggregateCauses(errs))
	}
	return LabelRequirement{Key: key, Operator: op, Values: values}, nil
}

// FieldSelector selects objects by field values, e.g.
// "metadata.name=t1,spec.section!=terrace": every term must hold. Only
// =, == and != exist, as in Kubernetes. It is immutable once parsed and
// safe for concurrent use; a nil *FieldSelector and the zero value match
// everything.
type FieldSelector struct {
	terms []fieldTerm // sorted as Kubernetes sorts them
}

type fieldTerm struct {
	field, value string
	not          bool
}

// ParseFieldSelector parses "field=value" terms separated by commas ("=="
// means "=", "!=" negates). A value may contain ",", "=" and "\" only
// escaped with a backslash. Which fields exist depends on the kind: check
// them with [KindInfo.ValidateFieldSelector]. A malformed selector gives a
// 400 BadRequest that quotes it.
func ParseFieldSelector(s string) (*FieldSelector, error) {
	terms := splitFieldTerms(s)
	slices.Sort(terms)
	sel := &FieldSelector{}
	for _, term := range terms {
		if term == "" {
			continue
		}
		field, op, raw, ok := splitFieldTerm(term)
		if !ok {
			return nil, NewBadRequest(fmt.Sprintf("invalid field selector %q: can't understand %q", s, term))
		}
		if field == "" {
			return nil, NewBadRequest(fmt.Sprintf("invalid field selector %q: no field name in %q", s, term))
		}
		value, err := unescapeFieldValue(raw)
		if err != nil {
			return nil, NewBadRequest(fmt.Sprintf("invalid field selector %q: %v", s, err))
		}
		sel.terms = append(sel.terms, fieldTerm{field: field, value: value, not: op == "!="})
	}
	return sel, nil
}

// Matches reports whether fields (field name to value, e.g. from
// [KindInfo.FieldSet]) satisfy every term. A field missing from fields
// counts as the empty string.
func (s *FieldSelector) Matches(fields map[string]string) bool {
	if s == nil {
		return true
	}
	for _, t := range s.terms {
		if (fields[t.field] == t.value) == t.not {
			return false
		}
	}
	return true
}

// Empty reports whether s selects everything.
func (s *FieldSelector) Empty() bool { return s == nil || len(s.terms) == 0 }

// Requirements lists the field names the selector uses, sorted and without
// duplicates, so that a server can reject fields a kind does not support.
func (s *FieldSelector) Requirements() []string {
	if s == nil {
		return nil
	}
	var names []string
	for _, t := range s.terms {
		names = append(names, t.field)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// String returns the selector in canonical form, values escaped.
func (s *FieldSelector) String() string {
	if s == nil {
		return ""
	}
	parts := make([]string, len(s.terms))
	for i, t := range s.terms {
		op := "="
		if t.not {
			op = "!="
		}
		parts[i] = t.field + op + fieldValueEscaper.Replace(t.value)
	}
	return strings.Join(parts, ",")
}

var fieldValueEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// splitFieldTerms cuts s at commas that are not escaped.
func splitFieldTerms(s string) []string {
	if s == "" {
		return nil
	}
	var terms []string
	start, escaped := 0, false
	for i, c := range s {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	return append(terms, s[start:])
}

// splitFieldTerm cuts a term at its first operator; "!=" and "==" win over
// "=" at the same position.
func splitFieldTerm(term string) (field, op, value string, ok bool) {
	for i := range term {
		for _, op := range []string{"!=", "==", "="} {
			if strings.HasPrefix(term[i:], op) {
				return term[:i], op, term[i+len(op):], true
			}
		}
	}
	return "", "", "", false
}

// unescapeFieldValue undoes the backslash escapes of \, , and =.
func unescapeFieldValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	escaped := false
	for _, c := range s {
		switch {
		case escaped && (c == '\\' || c == ',' || c == '='):
			b.WriteRune(c)
			escaped = false
		case escaped:
			return "", fmt.Errorf("invalid escape sequence \\%c in value %q", c, s)
		case c == '\\':
			escaped = true
		case c == ',' || c == '=':
			return "", fmt.Errorf("unescaped %q in value %q (escape it as \\%c)", c, s, c)
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", fmt.Errorf("invalid escape sequence \\ at the end of value %q", s)
	}
	return b.String(), nil
}

// ValidateFieldSelector returns a 400 BadRequest naming the first field sel
// uses that this kind does not support (worded as kube-apiserver words it;
// [KindInfo.SupportedFields] lists those it does), or nil. A nil sel is
// valid.
func (k KindInfo) ValidateFieldSelector(sel *FieldSelector) error {
	supported := k.SupportedFields()
	for _, field := range sel.Requirements() {
		if !slices.Contains(supported, field) {
			return NewBadRequest("field label not supported: " + field)
		}
	}
	return nil
}
