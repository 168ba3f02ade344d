package meta

import (
	"regexp"
	"testing"
)

// The regular expressions the hand-written matchers replace, anchored as
// Kubernetes anchors them.
var matchers = []struct {
	name  string
	re    *regexp.Regexp
	match func(string) bool
}{
	{"dns1123Label", regexp.MustCompile("^" + dns1123LabelFmt + "$"), matchDNS1123Label},
	{"dns1123Subdomain", regexp.MustCompile("^" + dns1123SubdomainFmt + "$"), matchDNS1123Subdomain},
	{"dns1035Label", regexp.MustCompile("^" + dns1035LabelFmt + "$"), matchDNS1035Label},
	{"labelKeyName", regexp.MustCompile("^" + labelKeyFmt + "$"), matchLabelName},
	{"labelValue", regexp.MustCompile("^" + labelValueFmt + "$"), matchLabelValue},
}

func checkMatchersAgree(t *testing.T, s string) {
	t.Helper()
	for _, m := range matchers {
		if want, got := m.re.MatchString(s), m.match(s); got != want {
			t.Errorf("%s(%q) = %v, the regular expression says %v", m.name, s, got, want)
		}
	}
}

func TestMatchersAgreeWithRegexps(t *testing.T) {
	for _, s := range []string{
		"", "a", "A", "0", "-", ".", "_", "a-", "-a", "a.b", "a..b", ".a", "a.", "a-b", "a_b", "a.b.c",
		"ab", "aB", "Ab", "9a", "a9", "a--b", "a-.b", "a.-b", "my-name", "123-abc", "example.com",
		"MyName", "my.name", "my_value", "12345", "x\n", "\na", "a\nb", "é", "aé", "a b", "a/b", "a$",
		"a.b-c.d", "a.1", "1.a", "-.a", "a._b", "A.B", "a-b-", "_a", "a_",
	} {
		checkMatchersAgree(t, s)
	}
}

func FuzzMatchersAgreeWithRegexps(f *testing.F) {
	for _, s := range []string{"", "a", "a.b", "my-name", "A_b.c", "a..b", "-a", "é"} {
		f.Add(s)
	}
	f.Fuzz(checkMatchersAgree)
}
