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
// interface (exactly localhost, 127.0.0.0/8 or ::1), as `kubectl proxy`
// does with its default --accept-hosts: a web page whose name an attacker
// has rebound to 127.0.0.1 ("DNS rebinding") sends its own name as Host,
// and is refused with 403 before it can read or write anything.
// [WithAcceptHosts] widens the door, and [WithBearerToken] asks every
// request for a token, which a server reachable from other machines needs.
//
// A web page on another site can still make a browser send a "simple"
// request here, without asking first: a POST whose body has no
// Content-Type, or text/plain, or a form's. So every write (POST, PUT,
// PATCH, DELETE) that a browser marks as coming from another origin
// (Sec-Fetch-Site, else Origin against Host: [http.CrossOriginProtection])
// is refused with 403, and a write with a body but no Content-Type is
// refused with 415, as one of any type but JSON, YAML, protobuf or a patch
// type is. kube-apiserver reads a body without a Content-Type as JSON, but
// it only ever answers clients that authenticated, which a cross-site
// request cannot do; this door is open without a token by default, and
// every client worth the name (kubectl, client-go, package rest) names
// its Content-Type.

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

// admit checks a request at the door, answering it with 403, 401 or 415
// and returning false when it may not come in.
func (h *Handler) admit(w http.ResponseWriter, r *http.Request) bool {
	host := hostOnly(r.Host)
	var err error
	switch {
	case !h.hostAccepted(host):
		err = newStatusError(http.StatusForbidden, reasonForbidden, fmt.Sprintf(
			"host %q is not accepted: this server answers only the hosts it was told to "+
				"(by default loopback names: localhost, 127.0.0.1, ::1; see httpapi.WithAcceptHosts)", host))
	case h.token != "" && !TokenMatches(r.Header.Get("Authorization"), h.token):
		err = newStatusError(http.StatusUnauthorized, reasonUnauthorized, "Unauthorized")
	case new(http.CrossOriginProtection).Check(r) != nil:
		err = newStatusError(http.StatusForbidden, reasonForbidden,
			"a cross-origin write is refused: a web page on another site may not write here")
	case r.Method != http.MethodGet && r.Method != http.MethodHead && r.ContentLength != 0 && r.Header.Get("Content-Type") == "":
		err = errUnsupportedBody("", true)
	}
	if err != nil {
		writeError(w, err)
		return false
	}
	return true
}

// TokenMatches reports whether authorization, an Authorization header,
// carries token as a bearer token: "Bearer TOKEN", the scheme in any
// case (as kube-apiserver reads it), the token compared in constant time.
func TokenMatches(authorization, token string) bool {
	scheme, got, ok := strings.Cut(strings.TrimSpace(authorization), " ")
	return ok && strings.EqualFold(scheme, "Bearer") &&
		subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(token)) == 1
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
// port ("[::1]" brackets allowed), names the loopback interface: exactly
// localhost, an address in 127.0.0.0/8, or ::1. A name under .localhost
// (evil.localhost) is not one: a browser sends it as it is, and only a
// resolver that knows the rule maps it to loopback.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
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
