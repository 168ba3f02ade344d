package liveview

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// Site is the live view of a restaurant and its Kubernetes API (package
// httpapi) on one address, behind one door (see [Option]): the handler
// [Serve] serves. Create it with [NewSite]; it is safe for concurrent use.
type Site struct {
	door *door
}

// NewSite returns the site of r: the live view at "/" and the API under
// /api, /apis, /version and /openapi/, behind the door opts describe (by
// default: loopback Host names only, no token). The view subscribes to
// r's trace and informers now, so a program that creates the site before
// it starts r.Run shows the runner's first LIST and WATCH.
func NewSite(ctx context.Context, r *restaurant.Restaurant, opts ...Option) *Site {
	set := newSettings(opts)
	d := &door{acceptHosts: set.acceptHosts, token: set.token}
	mux := http.NewServeMux()
	// The API keeps its own Host check too (the same hosts); the token is
	// checked at the site's door, which also takes the page's cookie.
	var apiOpts []httpapi.Option
	if d.acceptHosts != nil {
		apiOpts = append(apiOpts, httpapi.WithAcceptHosts(d.acceptHosts...))
	}
	api := httpapi.NewHandler(r.Server, apiOpts...)
	for _, p := range []string{"/api", "/api/", "/apis", "/apis/", "/version", "/openapi/"} {
		mux.Handle(p, api)
	}
	mux.Handle("/", Handler(ctx, r, opts...))
	// Buttons and the API act on the server: a write (any unsafe method,
	// any route) from another site is refused.
	d.next = http.NewCrossOriginProtection().Handler(mux)
	return &Site{door: d}
}

// ServeHTTP lets a request in at the door, then serves it.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.door.ServeHTTP(w, r) }

// Serve serves the site on ln (wrap ln with [crypto/tls.NewListener] for
// HTTPS; with "h2" in the config's NextProtos, clients may speak HTTP/2)
// until ctx ends, then closes ln and the page's event streams.
func (s *Site) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(shut)
	if e := <-done; !errors.Is(e, http.ErrServerClosed) {
		err = errors.Join(err, e)
	}
	return err
}

// Serve serves the live view of r and its API on ln, behind the door opts
// describe, and returns when ctx ends: NewSite(ctx, r, opts...).Serve(ctx, ln).
// By default only loopback Host names are answered, so serve it on a
// loopback address, or give [WithAcceptHosts] and [WithBearerToken].
func Serve(ctx context.Context, ln net.Listener, r *restaurant.Restaurant, opts ...Option) error {
	return NewSite(ctx, r, opts...).Serve(ctx, ln)
}
