package meta

import "strings"

// Hand-written matchers for the name and label patterns (the *Fmt
// constants in validation.go, which error messages still quote). They
// accept exactly what the anchored regular expressions accept, byte by
// byte (a test checks it), at a fraction of the cost: every create and
// update checks a name and every label.

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || c >= 'A' && c <= 'Z' }

// matchDNS1123Label matches "[a-z0-9]([-a-z0-9]*[a-z0-9])?".
func matchDNS1123Label(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// matchDNS1123Subdomain matches dot-separated RFC 1123 labels.
func matchDNS1123Subdomain(s string) bool {
	for {
		label, rest, more := strings.Cut(s, ".")
		if !matchDNS1123Label(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// matchDNS1035Label matches "[a-z]([-a-z0-9]*[a-z0-9])?".
func matchDNS1035Label(s string) bool {
	return s != "" && s[0] >= 'a' && s[0] <= 'z' && matchDNS1123Label(s)
}

// matchLabelName matches "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]", the
// name part of a label key and a non-empty label value.
func matchLabelName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// matchLabelValue matches an empty string or a label name.
func matchLabelValue(s string) bool { return s == "" || matchLabelName(s) }
