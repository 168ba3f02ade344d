package structural

import (
	"encoding/base64"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"time"
)

// formats are the string formats the real server checks (kube-openapi's
// strfmt registry, the ones a CRD schema commonly uses), each a check
// that reports whether a string is of the format. A format not listed
// is not checked, as there.
var formats = map[string]func(string) bool{
	"date-time": isDateTime,
	"datetime":  isDateTime,
	"date": func(s string) bool {
		_, err := time.Parse("2006-01-02", s)
		return err == nil
	},
	"byte": func(s string) bool {
		_, err := base64.StdEncoding.DecodeString(s)
		return err == nil
	},
	"uuid": uuidRE.MatchString,
	"ipv4": func(s string) bool {
		ip := net.ParseIP(s)
		return ip != nil && ip.To4() != nil && !strings.Contains(s, ":")
	},
	"ipv6":     func(s string) bool { ip := net.ParseIP(s); return ip != nil && strings.Contains(s, ":") },
	"cidr":     func(s string) bool { _, _, err := net.ParseCIDR(s); return err == nil },
	"mac":      func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"hostname": hostnameRE.MatchString,
	"email": func(s string) bool {
		_, err := mail.ParseAddress(s)
		return err == nil
	},
	"duration": func(s string) bool {
		_, err := time.ParseDuration(s)
		return err == nil || durationRE.MatchString(s)
	},
}

var (
	uuidRE     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	hostnameRE = regexp.MustCompile(`^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$`)
	durationRE = regexp.MustCompile(`^(\d+(\.\d+)?\s*(ns|us|µs|ms|s|m|h|d|w)\s*)+$`)
)

// isDateTime accepts RFC 3339 date-times, as the real server's format
// check does (with or without fractional seconds).
func isDateTime(s string) bool {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05Z0700"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// checkFormat returns format if s is not of it, or "" if it is (or the
// format is not checked).
func checkFormat(format, s string) string {
	if check, ok := formats[format]; ok && !check(s) {
		return format
	}
	return ""
}
