package meta_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Label sets the selector tests match against.
var (
	vip     = map[string]string{"section": "vip", "table": "1"}
	terrace = map[string]string{"section": "terrace", "table": "7", "allergy": "nuts"}
	bare    = map[string]string{}
)

func TestParseLabelSelector(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		selector string
		want     string // canonical String()
		matches  []bool // vip, terrace, bare
	}{
		{"Empty", "the empty selector selects everything", "", "", []bool{true, true, true}},
		{"Equals", "", "section=vip", "section=vip", []bool{true, false, false}},
		{"DoubleEquals", "== is kept in String, as Kubernetes keeps it", "section==vip", "section==vip", []bool{true, false, false}},
		{"NotEquals", "!= also matches a missing key", "section!=vip", "section!=vip", []bool{false, true, true}},
		{"EmptyValue", "a value may be empty", "section=", "section=", []bool{false, false, false}},
		{"In", "values are sorted", "table in (7,1)", "table in (1,7)", []bool{true, true, false}},
		{"NotIn", "notin also matches a missing key", "table notin (1)", "table notin (1)", []bool{false, true, true}},
		{"InEmptySlots", "empty slots are the empty value", "table in (1,,)", "table in (,1)", []bool{true, false, false}},
		{"InNothing", "() holds the empty value", "table in ()", "table in ()", []bool{false, false, false}},
		{"Exists", "", "allergy", "allergy", []bool{false, true, false}},
		{"DoesNotExist", "", "!allergy", "!allergy", []bool{true, false, true}},
		{"GreaterThan", "integers compared as numbers", "table>5", "table>5", []bool{false, true, false}},
		{"LessThan", "", "table<5", "table<5", []bool{true, false, false}},
		{"Sorted", "requirements sorted by key", "table in (1), !allergy ,section=vip", "!allergy,section=vip,table in (1)", []bool{true, false, false}},
		{"Spaces", "whitespace around tokens is ignored", " section \t= vip ", "section=vip", []bool{true, false, false}},
		{"KeywordAsValue", "in and notin are plain words where a value stands", "section=in", "section=in", []bool{false, false, false}},
		{"KeywordAsKey", "and where a key stands", "in", "in", []bool{false, false, false}},
		{"PrefixedKey", "keys may have a DNS prefix", "menu.example.com/section=vip", "menu.example.com/section=vip", []bool{false, false, false}},
		{"SameKeyTwice", "both must hold; input order kept", "table!=2,table!=1", "table!=2,table!=1", []bool{false, true, true}},
	}
	sets := []map[string]string{vip, terrace, bare}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := meta.ParseLabelSelector(tt.selector)
			if err != nil {
				t.Fatalf("ParseLabelSelector(%q) error: %v (%s)", tt.selector, err, tt.reason)
			}
			if got := sel.String(); got != tt.want {
				t.Errorf("String() = %q, want %q (%s)", got, tt.want, tt.reason)
			}
			var got []bool
			for _, set := range sets {
				got = append(got, sel.Matches(set))
			}
			if diff := cmp.Diff(tt.matches, got); diff != "" {
				t.Errorf("Matches(vip, terrace, bare) mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestParseLabelSelectorErrors(t *testing.T) {
	const keyRule = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	const valueRule = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	// The problem texts are those of Kubernetes' labels.Parse, checked
	// against it, as kube-apiserver answers them.
	tests := []struct {
		name     string
		selector string
		problem  string
	}{
		{"InWithoutParen", "a in x", "unable to parse requirement: found 'x' expected: '('"},
		{"InAtEnd", "a in", "unable to parse requirement: found '' expected: '('"},
		{"UnclosedSet", "a in (x", "unable to parse requirement: found '', expected: ',' or ')'"},
		{"SpaceInSet", "a in (x y)", "unable to parse requirement: found 'y', expected: ',' or ')'"},
		{"NoOperator", "a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"BangInside", "a!b", "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"},
		{"ParenValue", "a=(b)", "unable to parse requirement: found '(', expected: identifier"},
		{"TripleEquals", "a===b", "unable to parse requirement: found '=', expected: identifier"},
		{"BangAlone", "!", "unable to parse requirement: found '', expected: identifier"},
		{"BangWithValue", "!a=b", "found '=', expected: ',' or 'end of string'"},
		{"TwoValues", "a=b c", "found 'c', expected: ',' or 'end of string'"},
		{"LeadingComma", ",a", "found ',', expected: !, identifier, or 'end of string'"},
		{"TrailingComma", "a=b,", "found '', expected: identifier after ','"},
		{"DoubleComma", "a,,b", "found ',', expected: identifier after ','"},
		{"GtNotInteger", "a>x", `unable to parse requirement: values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"BadKey", "-a", `unable to parse requirement: key: Invalid value: "-a": ` + keyRule},
		{"EmptyPrefix", "/a=b", `unable to parse requirement: key: Invalid value: "/a": prefix part must be non-empty`},
		{"LongKey", strings.Repeat("k", 64), `unable to parse requirement: key: Invalid value: "` + strings.Repeat("k", 64) + `": name part must be no more than 63 bytes`},
		{"BadValue", "a=@", `unable to parse requirement: values[0][a]: Invalid value: "@": ` + valueRule},
		{"TwoBadValues", "a in (@,#)", `unable to parse requirement: [values[0][a]: Invalid value: "#": ` + valueRule +
			`, values[1][a]: Invalid value: "@": ` + valueRule + `]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := meta.ParseLabelSelector(tt.selector)
			if err == nil {
				t.Fatalf("ParseLabelSelector(%q) = %v, want an error", tt.selector, sel)
			}
			if !meta.IsBadRequest(err) {
				t.Errorf("error %v is not a BadRequest", err)
			}
			if diff := cmp.Diff(tt.problem, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLabelSelectorNilAndEverything(t *testing.T) {
	var nilSel *meta.LabelSelector
	for _, sel := range []*meta.LabelSelector{nilSel, meta.Everything()} {
		if !sel.Matches(terrace) || !sel.Matches(nil) || !sel.Empty() || sel.String() != "" || len(sel.Requirements()) != 0 {
			t.Errorf("selector %#v does not behave as everything", sel)
		}
	}
}

func TestSelectorFromSet(t *testing.T) {
	sel := meta.SelectorFromSet(map[string]string{"table": "1", "section": "vip"})
	if got, want := sel.String(), "section=vip,table=1"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if !sel.Matches(vip) || sel.Matches(terrace) {
		t.Errorf("SelectorFromSet matches wrongly")
	}
	want := []meta.LabelRequirement{
		{Key: "section", Operator: meta.SelectorOpEquals, Values: []string{"vip"}},
		{Key: "table", Operator: meta.SelectorOpEquals, Values: []string{"1"}},
	}
	got := sel.Requirements()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Requirements mismatch (-want +got):\n%s", diff)
	}
	got[0].Values[0] = "changed"
	if sel.String() != "section=vip,table=1" {
		t.Errorf("mutating Requirements() changed the selector: %q", sel.String())
	}
}

func TestParseFieldSelector(t *testing.T) {
	t1 := map[string]string{"metadata.name": "t1", "metadata.namespace": "diner", "spec.section": "vip"}
	odd := map[string]string{"metadata.name": "a,b=c", "spec.section": `x\y`}
	tests := []struct {
		name     string
		reason   string
		selector string
		want     string
		fields   []string
		matches  []bool // t1, odd
	}{
		{"Empty", "selects everything", "", "", nil, []bool{true, true}},
		{"Equals", "", "metadata.name=t1", "metadata.name=t1", []string{"metadata.name"}, []bool{true, false}},
		{"DoubleEquals", "== prints as =", "metadata.name==t1", "metadata.name=t1", []string{"metadata.name"}, []bool{true, false}},
		{"NotEquals", "", "spec.section!=vip", "spec.section!=vip", []string{"spec.section"}, []bool{false, true}},
		{"Missing", "a missing field is the empty string", "spec.missing=", "spec.missing=", []string{"spec.missing"}, []bool{true, true}},
		{"Sorted", "terms sorted, fields deduplicated",
			"spec.section=vip,metadata.name!=x,metadata.name!=y", "metadata.name!=x,metadata.name!=y,spec.section=vip",
			[]string{"metadata.name", "spec.section"}, []bool{true, false}},
		{"Escapes", `\, \= and \\ are literal`, `metadata.name=a\,b\=c,spec.section=x\\y`, `metadata.name=a\,b\=c,spec.section=x\\y`,
			[]string{"metadata.name", "spec.section"}, []bool{false, true}},
		{"EmptyTerms", "empty terms are skipped", ",metadata.name=t1,", "metadata.name=t1", []string{"metadata.name"}, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := meta.ParseFieldSelector(tt.selector)
			if err != nil {
				t.Fatalf("ParseFieldSelector(%q) error: %v", tt.selector, err)
			}
			if got := sel.String(); got != tt.want {
				t.Errorf("String() = %q, want %q (%s)", got, tt.want, tt.reason)
			}
			if diff := cmp.Diff(tt.fields, sel.Requirements()); diff != "" {
				t.Errorf("Requirements mismatch (-want +got):\n%s", diff)
			}
			got := []bool{sel.Matches(t1), sel.Matches(odd)}
			if diff := cmp.Diff(tt.matches, got); diff != "" {
				t.Errorf("Matches(t1, odd) mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestParseFieldSelectorErrors(t *testing.T) {
	tests := []struct {
		name     string
		selector string
		want     string
	}{
		{"NoOperator", "metadata.name", `invalid field selector "metadata.name": can't understand "metadata.name"`},
		{"SetSyntax", "a in (x,y)", `invalid field selector "a in (x,y)": can't understand "a in (x"`},
		{"NoField", "=x", `invalid field selector "=x": no field name in "=x"`},
		{"UnescapedEquals", "a=b=c", `invalid field selector "a=b=c": unescaped '=' in value "b=c" (escape it as \=)`},
		{"BadEscape", `a=b\x`, `invalid field selector "a=b\\x": invalid escape sequence \x in value "b\\x"`},
		{"TrailingBackslash", `a=b\`, `invalid field selector "a=b\\": invalid escape sequence \ at the end of value "b\\"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := meta.ParseFieldSelector(tt.selector)
			if !meta.IsBadRequest(err) {
				t.Fatalf("ParseFieldSelector(%q) error = %v, want a BadRequest", tt.selector, err)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
		})
	}
	var nilSel *meta.FieldSelector
	if !nilSel.Matches(nil) || !nilSel.Empty() || nilSel.String() != "" || nilSel.Requirements() != nil {
		t.Error("a nil FieldSelector does not behave as everything")
	}
}

// FuzzParseLabelSelector checks that no input panics, that every failure
// is a typed BadRequest, and that String is canonical: parsing it again
// gives the same selector.
func FuzzParseLabelSelector(f *testing.F) {
	for _, seed := range []string{
		"", "a", "!a", "a=b", "a==b", "a!=b", "a=", "a in (x,y)", "a notin ()", "a in (,x,)",
		"a>5", "a<x", "!", ",", "a,", "a in (x", "example.com/a=b", "/a", "a/b/c", "a=b c", "x=in",
		"a===b", "a in (@,#)", " \t\r\n", "\x00", "é=ü", strings.Repeat("a", 64) + "=b",
	} {
		f.Add(seed)
	}
	sets := []map[string]string{nil, vip, terrace, {"a": "b"}, {"a": "5"}, {"a": ""}}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := meta.ParseLabelSelector(s)
		if err != nil {
			if !meta.IsBadRequest(err) || err.Error() == "" {
				t.Fatalf("ParseLabelSelector(%q) error %v is not a BadRequest with a message", s, err)
			}
			return
		}
		again, err := meta.ParseLabelSelector(sel.String())
		if err != nil {
			t.Fatalf("String() %q of %q does not parse: %v", sel.String(), s, err)
		}
		if again.String() != sel.String() {
			t.Fatalf("String() not canonical: %q then %q", sel.String(), again.String())
		}
		for _, set := range sets {
			if sel.Matches(set) != again.Matches(set) {
				t.Fatalf("%q and its String %q disagree on %v", s, sel.String(), set)
			}
		}
	})
}

// FuzzParseFieldSelector checks the same for field selectors.
func FuzzParseFieldSelector(f *testing.F) {
	for _, seed := range []string{"", "a=b", "a==b", "a!=b", `a=b\,c`, `a=\\`, `a=\`, "=", "a", ",,", "a=b=c"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := meta.ParseFieldSelector(s)
		if err != nil {
			if !meta.IsBadRequest(err) {
				t.Fatalf("ParseFieldSelector(%q) error %v is not a BadRequest", s, err)
			}
			return
		}
		again, err := meta.ParseFieldSelector(sel.String())
		if err != nil || again.String() != sel.String() {
			t.Fatalf("String() %q of %q does not round-trip: %v", sel.String(), s, err)
		}
	})
}
