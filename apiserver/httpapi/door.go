package httpapi

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The door: which requests the handler lets in at all.
//
// By default it answers only requests whose Host header names the loopback
// interface (localhost, 127.0.0.0/8, ::1), as `kubectl proxy` does with its
// default --accept-hosts: a web page whose name an attacker has rebound to
// 127.0.0.1 ("DNS rebinding") sends its own name as Host, and is refused
// with 403 before it can read or write anything. [WithAcceptHosts] widens
// the door, and [WithBearerToken] asks every request for a token, which a
// server reachable from other machines needs.

// WithAcceptHosts replaces the loopback-only default: a request is
// answered when the host in its Host header (without the port) matches
// one of hosts, like `kubectl proxy --accept-hosts`. For example,
// regexp.MustCompile(`^kitchen\.internal$`); regexp.MustCompile(`.`)
// accepts any host.
func WithAcceptHosts(hosts ...*regexp.Regexp) Option {
	return func(h *Handler) { h.acceptHosts = hosts }
}

// WithBearerToken makes the handler answer only requests that carry
// `Authorization: Bearer token`; any other gets 401 Unauthorized, as the
// real server answers a request it cannot authenticate. An empty token
// turns the check off (the default).
func WithBearerToken(token string) Option {
	return func(h *Handler) { h.token = token }
}

// admit checks a request at the door, answering it with 403 or 401 and
// returning false when it may not come in.
func (h *Handler) admit(w http.ResponseWriter, r *http.Request) bool {
	host := hostOnly(r.Host)
	if !h.hostAccepted(host) {
		writeError(w, newStatusError(http.StatusForbidden, reasonForbidden, fmt.Sprintf(
			"host %q is not accepted: this server answers only the hosts it was told to "+
				"(by default loopback names: localhost, 127.0.0.1, ::1; see httpapi.WithAcceptHosts)", host)))
		return false
	}
	if h.token == "" {
		return true
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(h.token)) != 1 {
		writeError(w, newStatusError(http.StatusUnauthorized, reasonUnauthorized, "Unauthorized"))
		return false
	}
	return true
}

// The reasons of a 403 and a 401, as Kubernetes names them.
const (
	reasonForbidden    meta.StatusReason = "Forbidden"
	reasonUnauthorized meta.StatusReason = "Unauthorized"
)

// hostAccepted reports whether host (without a port) may be served.
func (h *Handler) hostAccepted(host string) bool {
	return HostAccepted(host, h.acceptHosts)
}

// HostAccepted reports whether a request's host (without its port) may
// be served by a door whose accepted hosts are accept (what
// [WithAcceptHosts] gives): any host one of them matches, or with none
// given, loopback hosts only ([IsLoopbackHost]), as `kubectl proxy`
// decides. A request without a Host (only one made in process, handed to
// ServeHTTP, can lack it: browsers always send one) is let in.
func HostAccepted(host string, accept []*regexp.Regexp) bool {
	if host == "" {
		return true
	}
	if accept == nil {
		return IsLoopbackHost(host)
	}
	for _, re := range accept {
		if re.MatchString(host) {
			return true
		}
	}
	return false
}

// IsLoopbackHost reports whether host, a name or an address without a
// port ("[::1]" brackets allowed), names the loopback interface:
// localhost (or a name under .localhost), 127.0.0.0/8 or ::1.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostOnly strips the port from a Host header value.
func hostOnly(hostport string) string {
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		return host
	}
	return hostport
}
