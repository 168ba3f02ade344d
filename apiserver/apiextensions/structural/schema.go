package structural

import (
	"regexp"
	"sync"
)

// Schema is one node of a structural schema: the type of a value, its
// fields or items, the rules it must follow, and what the server does
// with it (defaults, pruning, list semantics). A CustomResourceDefinition's
// openAPIV3Schema becomes a tree of them once it is known to be
// structural (package apiextensions checks that, with the real server's
// messages).
//
// A Schema is read-only once built and safe for concurrent use.
type Schema struct {
	// Type is object, array, string, integer, number or boolean; empty
	// for any value (with IntOrString or PreserveUnknownFields).
	Type   string
	Format string
	// Description is what kubectl explain prints.
	Description string
	// Nullable lets the value be null; otherwise a null is dropped (and
	// then defaulted) rather than refused.
	Nullable bool
	// Properties are an object's fields.
	Properties map[string]*Schema
	// AdditionalProperties is the schema of a map's values (an object
	// with no Properties); AdditionalAny allows values of any kind
	// (additionalProperties: true).
	AdditionalProperties *Schema
	AdditionalAny        bool
	// Items is the schema of an array's items.
	Items *Schema
	// Default, when HasDefault, is filled in where the value is missing
	// (or null and not Nullable).
	Default    any
	HasDefault bool

	Enum                               []any
	Maximum, Minimum                   *float64
	ExclusiveMaximum, ExclusiveMinimum bool
	MultipleOf                         *float64
	MaxLength, MinLength               *int64
	Pattern                            string
	MaxItems, MinItems                 *int64
	MaxProperties, MinProperties       *int64
	Required                           []string
	// AllOf, AnyOf, OneOf and Not hold value validations only (a
	// structural schema keeps types out of them).
	AllOf, AnyOf, OneOf []*Schema
	Not                 *Schema

	// PreserveUnknownFields keeps undeclared fields from pruning.
	PreserveUnknownFields bool
	// EmbeddedResource marks a whole object inside (apiVersion, kind,
	// metadata), whose metadata is pruned to ObjectMeta's fields.
	EmbeddedResource bool
	// IntOrString allows an integer or a string.
	IntOrString bool
	// ListType is atomic, set or map; ListMapKeys the keys of a map list.
	ListType    string
	ListMapKeys []string
	// MapType is granular or atomic.
	MapType string
	// Rules are the CEL rules (x-kubernetes-validations), checked by
	// package structural/../cel.
	Rules []Rule

	patternOnce sync.Once
	pattern     *regexp.Regexp
}

// Rule is one CEL validation rule of a schema node.
type Rule struct {
	Rule, Message, MessageExpression, Reason, FieldPath string
	OptionalOldSelf                                     bool
}

// compiledPattern returns Pattern compiled, or nil if it does not
// compile (a definition with such a pattern is refused before it gets
// here).
func (s *Schema) compiledPattern() *regexp.Regexp {
	s.patternOnce.Do(func() {
		s.pattern, _ = regexp.Compile(s.Pattern)
	})
	return s.pattern
}

// Property returns the schema of an object's field name: a declared
// property, or the map values' schema; nil if the schema says nothing.
func (s *Schema) Property(name string) *Schema {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[name]; ok {
		return p
	}
	return s.AdditionalProperties
}
