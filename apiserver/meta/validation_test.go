package meta_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The messages below are Kubernetes' own (k8s.io/apimachinery
// pkg/util/validation and pkg/api/validate/content), checked against it.
const (
	subdomainRule = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	labelRule     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	keyNameRule   = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	valueRule     = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

func TestIsDNS1123(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		name      string
		reason    string
		value     string
		label     []string
		subdomain []string
	}{
		{"Simple", "", "pasta", nil, nil},
		{"Digits", "may start with a digit", "123-abc", nil, nil},
		{"Dotted", "dots make a subdomain, not a label", "menu.example.com", []string{"must not contain dots"}, nil},
		{"Upper", "uppercase is never allowed", "Pasta", []string{labelRule}, []string{subdomainRule}},
		{"Empty", "empty is invalid", "", []string{labelRule}, []string{subdomainRule}},
		{"TrailingDash", "", "pasta-", []string{labelRule}, []string{subdomainRule}},
		{"Long", "64 characters: too long for a label, fine for a subdomain", long,
			[]string{"must be no more than 63 characters"}, nil},
		{"VeryLong", "254 characters: too long for both", strings.Repeat("a", 254),
			[]string{"must be no more than 63 characters"}, []string{"must be no more than 253 characters"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.label, meta.IsDNS1123Label(tt.value)); diff != "" {
				t.Errorf("IsDNS1123Label mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
			if diff := cmp.Diff(tt.subdomain, meta.IsDNS1123Subdomain(tt.value)); diff != "" {
				t.Errorf("IsDNS1123Subdomain mismatch (-want +got) (%s):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestIsDNS1035Label(t *testing.T) {
	if errs := meta.IsDNS1035Label("orders"); errs != nil {
		t.Errorf("IsDNS1035Label(orders) = %q", errs)
	}
	want := []string{"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"}
	if diff := cmp.Diff(want, meta.IsDNS1035Label("1orders")); diff != "" {
		t.Errorf("IsDNS1035Label(1orders) mismatch (-want +got):\n%s", diff)
	}
}

func TestIsLabelKeyAndValue(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		key    string
		want   []string
	}{
		{"Plain", "", "section", nil},
		{"Prefixed", "", "menu.example.com/section", nil},
		{"MixedCase", "names may be mixed case", "MyName", nil},
		{"EmptyPrefix", "", "/section", []string{"prefix part must be non-empty"}},
		{"BadPrefix", "the prefix is a lowercase subdomain", "Menu/section", []string{"prefix part " + subdomainRule}},
		{"EmptyName", "", "menu.example.com/", []string{"name part must be non-empty", keyNameRule}},
		{"LongName", "63 bytes at most", strings.Repeat("k", 64), []string{"name part must be no more than 63 bytes"}},
		{"TwoSlashes", "one slash at most", "a/b/c", []string{"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, meta.IsLabelKey(tt.key)); diff != "" {
				t.Errorf("IsLabelKey(%q) mismatch (-want +got) (%s):\n%s", tt.key, tt.reason, diff)
			}
		})
	}
	for _, ok := range []string{"", "vip", "my_value", "12345", "A.b-C"} {
		if errs := meta.IsLabelValue(ok); errs != nil {
			t.Errorf("IsLabelValue(%q) = %q, want valid", ok, errs)
		}
	}
	if diff := cmp.Diff([]string{valueRule}, meta.IsLabelValue("no spaces")); diff != "" {
		t.Errorf("IsLabelValue(no spaces) mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"must be no more than 63 bytes"}, meta.IsLabelValue(strings.Repeat("v", 64))); diff != "" {
		t.Errorf("IsLabelValue(long) mismatch (-want +got):\n%s", diff)
	}
}

func TestFieldErrors(t *testing.T) {
	var errs meta.FieldErrors
	if err := errs.ToError(orderGK, "t1"); err != nil {
		t.Fatalf("empty FieldErrors.ToError = %v, want nil", err)
	}
	errs.Invalid("spec.tables", 0, "must be positive")
	errs.Invalid("spec.rush", true, "not on Sundays")
	errs.Invalid("spec.extras", []string{"a", "b"}, "too many")
	errs.Required("spec.dish", "")
	errs.Forbidden("metadata.finalizers", "no new finalizers once deleting")
	errs.NotSupported("spec.section", "roof", []string{"terrace", "vip"})
	errs.NotFound("spec.dish", "unicorn")
	want := meta.FieldErrors{
		{Type: meta.CauseTypeFieldValueInvalid, Field: "spec.tables", Message: "Invalid value: 0: must be positive"},
		{Type: meta.CauseTypeFieldValueInvalid, Field: "spec.rush", Message: "Invalid value: true: not on Sundays"},
		{Type: meta.CauseTypeFieldValueInvalid, Field: "spec.extras", Message: `Invalid value: ["a","b"]: too many`},
		{Type: meta.CauseTypeFieldValueRequired, Field: "spec.dish", Message: "Required value"},
		{Type: meta.CauseTypeFieldValueForbidden, Field: "metadata.finalizers", Message: "Forbidden: no new finalizers once deleting"},
		{Type: meta.CauseTypeFieldValueNotSupported, Field: "spec.section", Message: `Unsupported value: "roof": supported values: "terrace", "vip"`},
		{Type: meta.CauseTypeFieldValueNotFound, Field: "spec.dish", Message: `Not found: "unicorn"`},
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("FieldErrors mismatch (-want +got):\n%s", diff)
	}
	err := errs[3:4].ToError(orderGK, "t1")
	if !meta.IsInvalid(err) || err.Error() != `Order.menu.example.com "t1" is invalid: spec.dish: Required value` {
		t.Errorf("ToError = %v", err)
	}
}

func TestValidateNameAndLabels(t *testing.T) {
	tests := []struct {
		name string
		errs meta.FieldErrors
		want string // the Invalid message
	}{{
		name: "MissingName",
		errs: meta.ValidateName("metadata.name", ""),
		want: `Order.menu.example.com "" is invalid: metadata.name: Required value: name or generateName is required`,
	}, {
		name: "BadName",
		errs: meta.ValidateName("metadata.name", "Table_1"),
		want: `Order.menu.example.com "" is invalid: metadata.name: Invalid value: "Table_1": ` + subdomainRule,
	}, {
		name: "BadLabels",
		errs: meta.ValidateLabels("metadata.labels", map[string]string{"z": "ok", "-a": "no spaces"}),
		want: `Order.menu.example.com "" is invalid: [metadata.labels: Invalid value: "-a": ` + keyNameRule +
			`, metadata.labels: Invalid value: "no spaces": ` + valueRule + `]`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.errs.ToError(orderGK, "")
			if err == nil {
				t.Fatal("ToError = nil, want an Invalid error")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
		})
	}
	annotations := meta.ValidateAnnotations("metadata.annotations", map[string]string{
		"Menu.Example.com/Note": "any value at all, spaces included", // case does not matter
		"bad key":               "",
		"big":                   strings.Repeat("x", meta.TotalAnnotationSizeLimit),
	})
	want := meta.FieldErrors{{
		Type: meta.CauseTypeFieldValueInvalid, Field: "metadata.annotations",
		Message: `Invalid value: "bad key": ` + keyNameRule,
	}, {
		Type: meta.CauseTypeFieldValueTooLong, Field: "metadata.annotations",
		Message: "Too long: may not be more than 262144 bytes",
	}}
	if diff := cmp.Diff(want, annotations); diff != "" {
		t.Errorf("ValidateAnnotations mismatch (-want +got):\n%s", diff)
	}
	if errs := meta.ValidateName("metadata.name", "t1"); errs != nil {
		t.Errorf("ValidateName(t1) = %v", errs)
	}
	if errs := meta.ValidateLabels("metadata.labels", map[string]string{"menu.example.com/section": "vip"}); errs != nil {
		t.Errorf("ValidateLabels(valid) = %v", errs)
	}
}
