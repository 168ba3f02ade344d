package liveview

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"regexp"

	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// The door: [Serve] and [NewSite] put the page, its buttons and the API
// behind the same check, so that a web page elsewhere cannot read the
// kitchen or press its buttons.
//
//   - Host: by default only requests whose Host header names the loopback
//     interface are answered (a page whose name an attacker rebinds to
//     127.0.0.1 sends its own name, and gets 403), as `kubectl proxy`
//     does; [WithAcceptHosts] widens it like its --accept-hosts.
//   - Token: with [WithBearerToken], every request needs the token, in
//     an `Authorization: Bearer` header (the scheme in any case, as
//     kube-apiserver reads it: kubectl, examples/chef) or in
//     the cookie a browser gets by opening the page once with
//     ?token=TOKEN (it is then sent to the same address without the
//     token in the URL). Tokens are compared in constant time.
//   - Writes: a write (POST, PUT, PATCH, DELETE, to a button or to the
//     API) made by another site is refused even on loopback
//     ([http.CrossOriginProtection]: Sec-Fetch-Site, else Origin against
//     Host), and the API refuses a write whose body names no Content-Type
//     (what a page elsewhere can send without asking; see package
//     httpapi's door).

// Option configures the door of [Serve] and [NewSite], and what the page
// may do ([WithGate]).
type Option func(*settings)

// settings are what the options set.
type settings struct {
	acceptHosts []*regexp.Regexp
	token       string
	gate        *Gate
}

// WithGate gives the page the gate wired into the kitchen ([Gate.Pace]),
// so that its pause, step and resume buttons and its guided scenes hold
// the real machinery. Without it the page only watches.
func WithGate(g *Gate) Option {
	return func(s *settings) { s.gate = g }
}

func newSettings(opts []Option) settings {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	return s
}

// WithAcceptHosts replaces the loopback-only default: a request is let in
// when the host of its Host header (without the port) matches one of
// hosts, like `kubectl proxy --accept-hosts`.
func WithAcceptHosts(hosts ...*regexp.Regexp) Option {
	return func(s *settings) { s.acceptHosts = hosts }
}

// WithBearerToken asks every request for token (see the door above). An
// empty token turns the check off, the default.
func WithBearerToken(token string) Option {
	return func(s *settings) { s.token = token }
}

// TokenCookie is the cookie that carries the token for a browser.
const TokenCookie = "kitchensync-token"

// door lets a request through to next, or answers it 403 or 401.
type door struct {
	acceptHosts []*regexp.Regexp // nil: loopback names only
	token       string           // "": no authentication
	next        http.Handler
}

func (d *door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if !d.hostAccepted(host) {
		refuse(w, http.StatusForbidden, "Forbidden", fmt.Sprintf(
			"host %q is not accepted: this server answers only loopback names unless told otherwise (serve -accept-hosts)", host))
		return
	}
	if d.token == "" {
		d.next.ServeHTTP(w, r)
		return
	}
	if q := r.URL.Query(); r.Method == http.MethodGet && q.Has("token") {
		d.exchange(w, r, q.Get("token"))
		return
	}
	if !d.tokenPresented(r) {
		refuse(w, http.StatusUnauthorized, "Unauthorized",
			"Unauthorized: send Authorization: Bearer TOKEN, or open the page once with ?token=TOKEN")
		return
	}
	d.next.ServeHTTP(w, r)
}

// exchange trades a right ?token= for the cookie, and redirects to the
// same URL without it, so that the token leaves the address bar and the
// history.
func (d *door) exchange(w http.ResponseWriter, r *http.Request, token string) {
	if !d.tokenMatches(token) {
		refuse(w, http.StatusUnauthorized, "Unauthorized", "Unauthorized: wrong ?token=")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: TokenCookie, Value: token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	clean := *r.URL
	q := clean.Query()
	q.Del("token")
	clean.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, clean.RequestURI(), http.StatusSeeOther)
}

func (d *door) tokenPresented(r *http.Request) bool {
	if auth := r.Header.Get("Authorization"); auth != "" {
		return httpapi.TokenMatches(auth, d.token)
	}
	c, err := r.Cookie(TokenCookie)
	return err == nil && d.tokenMatches(c.Value)
}

func (d *door) tokenMatches(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(d.token)) == 1
}

// hostAccepted reports whether host (without a port) may be served, by
// the same rule as the API's door.
func (d *door) hostAccepted(host string) bool {
	return httpapi.HostAccepted(host, d.acceptHosts)
}

// refuse answers with a Kubernetes Status, which kubectl understands and
// a browser shows readably.
func refuse(w http.ResponseWriter, code int, reason, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
		"status": "Failure", "message": message, "reason": reason, "code": code})
}
