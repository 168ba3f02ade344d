package meta

import (
	"strconv"
	"strings"
)

// JSONPathValues finds the values a simple JSONPath selects in doc, a
// decoded JSON value (what [Unstructured] content holds, or an object's
// JSON decoded): the paths of a CRD's additionalPrinterColumns,
// selectableFields and scale subresource. It takes fields
// (".spec.seats", "['a.b']"), indexes ("[0]", "[-1]"), all items ("[*]")
// and filters on a field ("[?(@.type==\"Ready\")]", with == or !=).
// It returns no values for a path it cannot follow, or cannot parse.
func JSONPathValues(doc any, path string) []any {
	steps, ok := parseJSONPath(path)
	if !ok {
		return nil
	}
	cur := []any{doc}
	for _, st := range steps {
		var next []any
		for _, v := range cur {
			next = append(next, st(v)...)
		}
		cur = next
	}
	return cur
}

// jsonPathStep maps one value to the values below it a step selects.
type jsonPathStep func(v any) []any

func parseJSONPath(path string) ([]jsonPathStep, bool) {
	path = strings.TrimSpace(path)
	path = strings.TrimSuffix(strings.TrimPrefix(path, "{"), "}")
	path = strings.TrimPrefix(path, "$")
	var steps []jsonPathStep
	for path != "" {
		switch {
		case path[0] == '.':
			end := strings.IndexAny(path[1:], ".[")
			if end < 0 {
				end = len(path) - 1
			}
			if name := path[1 : end+1]; name != "" {
				steps = append(steps, fieldStep(name))
			}
			path = path[end+1:]
		case path[0] == '[':
			end := closingBracket(path)
			if end < 0 {
				return nil, false
			}
			st, ok := bracketStep(path[1:end])
			if !ok {
				return nil, false
			}
			steps = append(steps, st)
			path = path[end+1:]
		default:
			return nil, false
		}
	}
	return steps, true
}

// closingBracket finds the ']' that closes the '[' at path[0], skipping
// brackets inside quotes.
func closingBracket(path string) int {
	quote := byte(0)
	for i := 1; i < len(path); i++ {
		switch c := path[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == ']':
			return i
		}
	}
	return -1
}

func fieldStep(name string) jsonPathStep {
	return func(v any) []any {
		if m, ok := v.(map[string]any); ok {
			if x, ok := m[name]; ok {
				return []any{x}
			}
		}
		return nil
	}
}

// bracketStep reads what is between brackets: a quoted name, *, an
// index or a filter.
func bracketStep(in string) (jsonPathStep, bool) {
	in = strings.TrimSpace(in)
	switch {
	case in == "*":
		return func(v any) []any {
			if list, ok := v.([]any); ok {
				return list
			}
			return nil
		}, true
	case len(in) >= 2 && (in[0] == '\'' || in[0] == '"') && in[len(in)-1] == in[0]:
		return fieldStep(in[1 : len(in)-1]), true
	case strings.HasPrefix(in, "?(") && strings.HasSuffix(in, ")"):
		return filterStep(in[2 : len(in)-1])
	}
	i, err := strconv.Atoi(in)
	if err != nil {
		return nil, false
	}
	return func(v any) []any {
		list, ok := v.([]any)
		j := i
		if j < 0 {
			j += len(list)
		}
		if !ok || j < 0 || j >= len(list) {
			return nil
		}
		return []any{list[j]}
	}, true
}

// filterStep reads "@.field==value" (or !=) and keeps the items of a
// list whose field has (or has not) the value.
func filterStep(expr string) (jsonPathStep, bool) {
	op := "=="
	left, right, found := strings.Cut(expr, "==")
	if !found {
		op = "!="
		if left, right, found = strings.Cut(expr, "!="); !found {
			return nil, false
		}
	}
	left, right = strings.TrimSpace(left), strings.TrimSpace(right)
	if !strings.HasPrefix(left, "@") {
		return nil, false
	}
	sub, ok := parseJSONPath(left[1:])
	if !ok {
		return nil, false
	}
	want := strings.Trim(right, `"'`)
	return func(v any) []any {
		list, _ := v.([]any)
		var out []any
		for _, item := range list {
			cur := []any{item}
			for _, st := range sub {
				var next []any
				for _, c := range cur {
					next = append(next, st(c)...)
				}
				cur = next
			}
			match := len(cur) == 1 && jsonPathString(cur[0]) == want
			if match == (op == "==") {
				out = append(out, item)
			}
		}
		return out
	}, true
}

// jsonPathString prints a value as kubectl's JSONPath prints it: a
// string as it is, anything else as JSON would.
func jsonPathString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return formatValue(v)
}
