package cel

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions/structural"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Validator checks the CEL rules of one structural schema. Build it with
// [Compile]; it is safe for concurrent use.
type Validator struct {
	root *node
}

// node holds the compiled rules of one schema node and the nodes below
// it that have rules.
type node struct {
	schema     *structural.Schema
	rules      []rule
	props      map[string]*node
	items      *node
	additional *node
}

// rule is one compiled rule.
type rule struct {
	src     structural.Rule
	prg     celgo.Program
	msg     celgo.Program // the messageExpression's, or nil
	usesOld bool
}

var env = mustEnv()

func mustEnv() *celgo.Env {
	e, err := celgo.NewEnv(
		celgo.Variable("self", celgo.DynType),
		celgo.Variable("oldSelf", celgo.DynType),
		ext.Strings(), ext.Sets(), ext.Lists(), ext.Math(), ext.Encoders(),
	)
	if err != nil {
		panic("cel: the environment does not build: " + err.Error()) // fixed at compile time; cannot fail
	}
	return e
}

// Compile compiles the rules of s and of every node below it. It
// returns nil and no causes if s has no rules. at is the schema's path in
// its CustomResourceDefinition (e.g. "spec.validation.openAPIV3Schema"):
// a rule that does not compile is a cause at
// <at>...x-kubernetes-validations[i].rule, worded as kube-apiserver
// words it ("compilation failed: ERROR: <input>:1:6: ...").
func Compile(s *structural.Schema, at string) (*Validator, meta.FieldErrors) {
	var errs meta.FieldErrors
	n := compileNode(s, at, &errs)
	if n == nil || len(errs) > 0 {
		return nil, errs
	}
	return &Validator{root: n}, nil
}

func compileNode(s *structural.Schema, at string, errs *meta.FieldErrors) *node {
	if s == nil {
		return nil
	}
	n := &node{schema: s}
	for i, r := range s.Rules {
		c, err := compileRule(r)
		if err != "" {
			errs.Invalid(fmt.Sprintf("%s.x-kubernetes-validations[%d].rule", at, i), ruleValue(r), err)
			continue
		}
		n.rules = append(n.rules, c)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		if child := compileNode(s.Properties[name], fmt.Sprintf("%s.properties[%s]", at, name), errs); child != nil {
			if n.props == nil {
				n.props = map[string]*node{}
			}
			n.props[name] = child
		}
	}
	n.items = compileNode(s.Items, at+".items", errs)
	n.additional = compileNode(s.AdditionalProperties, at+".additionalProperties", errs)
	if len(n.rules) == 0 && n.props == nil && n.items == nil && n.additional == nil {
		return nil
	}
	return n
}

// ruleValue is a rule as the real server prints it in an error: its
// internal Go type's fields.
func ruleValue(r structural.Rule) map[string]any {
	return map[string]any{"Rule": r.Rule, "Message": r.Message, "MessageExpression": r.MessageExpression,
		"Reason": nilIfEmpty(r.Reason), "FieldPath": r.FieldPath, "OptionalOldSelf": nil}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// compileRule compiles r, or returns why it does not compile.
func compileRule(r structural.Rule) (rule, string) {
	ast, iss := env.Compile(r.Rule)
	if iss.Err() != nil {
		return rule{}, "compilation failed: " + iss.Err().Error()
	}
	prg, err := env.Program(ast)
	if err != nil {
		return rule{}, "program instantiation failed: " + err.Error()
	}
	c := rule{src: r, prg: prg, usesOld: strings.Contains(r.Rule, "oldSelf")}
	if r.MessageExpression != "" {
		mast, iss := env.Compile(r.MessageExpression)
		if iss.Err() != nil {
			return rule{}, "messageExpression compilation failed: " + iss.Err().Error()
		}
		if c.msg, err = env.Program(mast); err != nil {
			return rule{}, "messageExpression instantiation failed: " + err.Error()
		}
	}
	return c, ""
}

// Validate evaluates the rules on obj, the new value, and old, the value
// as stored (nil on a create, when transition rules, those that name
// oldSelf, are skipped, as on the real server). path is where obj sits
// ("" for the whole object). A rule that is false is a cause at its node's
// path (plus its fieldPath), with its message or "failed rule: <rule>";
// one that fails to evaluate says why ("no such key: seats evaluating
// rule: ...").
func (v *Validator) Validate(obj, old any, path string) meta.FieldErrors {
	if v == nil {
		return nil
	}
	var errs meta.FieldErrors
	v.root.validate(obj, old, old != nil, path, &errs)
	return errs
}

func (n *node) validate(obj, old any, hasOld bool, path string, errs *meta.FieldErrors) {
	if n == nil || obj == nil {
		return
	}
	for _, r := range n.rules {
		r.check(n.schema, obj, old, hasOld, path, errs)
	}
	switch x := obj.(type) {
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(x)) {
			child := n.props[k]
			if child == nil && n.schema.Properties[k] == nil {
				child = n.additional
			}
			o, ok := oldMap[k]
			child.validate(x[k], o, hasOld && ok, join(path, k), errs)
		}
	case []any:
		for i, item := range x {
			// Items of a list are correlated with the old list's only by
			// key (map lists) on the real server; here transition rules
			// below a list are not checked.
			n.items.validate(item, nil, false, fmt.Sprintf("%s[%d]", path, i), errs)
		}
	}
}

// check evaluates one rule and records a cause if it is false or fails.
func (r rule) check(s *structural.Schema, obj, old any, hasOld bool, path string, errs *meta.FieldErrors) {
	if r.usesOld && !hasOld {
		return
	}
	vars := map[string]any{"self": obj}
	if hasOld {
		vars["oldSelf"] = old
	}
	out, _, err := r.prg.Eval(vars)
	typ := s.Type
	if typ == "" {
		typ = structural.TypeName(obj)
	}
	if err != nil {
		errs.Invalid(path, typ, fmt.Sprintf("%v evaluating rule: %s", err, r.errorString()))
		return
	}
	if out == types.True {
		return
	}
	at := path
	if fp := strings.TrimPrefix(r.src.FieldPath, "."); fp != "" {
		at = join(path, fp)
	}
	detail := r.message(vars)
	switch r.src.Reason {
	case "FieldValueForbidden":
		errs.Forbidden(at, detail)
	case "FieldValueRequired":
		errs.Required(at, detail)
	default:
		if typ == "object" || typ == "array" {
			*errs = append(*errs, meta.StatusCause{Type: meta.CauseTypeFieldValueInvalid, Field: at, Message: "Invalid value: " + detail})
			return
		}
		errs.Invalid(at, obj, detail)
	}
}

// message is the rule's messageExpression's value, its message, or
// "failed rule: <rule>".
func (r rule) message(vars map[string]any) string {
	if r.msg != nil {
		if out, _, err := r.msg.Eval(vars); err == nil {
			if s, ok := out.Value().(string); ok && s != "" {
				return s
			}
		}
	}
	if m := strings.TrimSpace(r.src.Message); m != "" {
		return m
	}
	return "failed rule: " + strings.TrimSpace(r.src.Rule)
}

func (r rule) errorString() string {
	if m := strings.TrimSpace(r.src.Message); m != "" {
		return m
	}
	return strings.TrimSpace(r.src.Rule)
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
