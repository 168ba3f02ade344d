package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"golang.org/x/time/rate"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Client talks to one API server over HTTP: it holds the connections,
// the credentials, the rate limiter and the scheme that says how each
// kind is spelled on the wire. It plays the part of client-go's
// RESTClient and dynamic client together; [Client.Resource] gives the
// per-resource calls.
//
// A Client is safe for concurrent use, and meant to be shared: every
// request from it draws on one rate limit and one pool of connections.
type Client struct {
	base       string // e.g. "https://10.0.0.1:6443", no trailing slash
	scheme     *meta.Scheme
	hc         *http.Client
	transport  *http.Transport
	limiter    *rate.Limiter // nil: no limit
	timeout    time.Duration
	maxRetries int
	userAgent  string
	token      *tokenSource
}

// New returns a client for the server cfg describes, which decodes objects
// with the kinds registered in scheme. It fails with a [*ConfigError] when
// cfg cannot be used (no host, unreadable certificates).
func New(cfg *Config, scheme *meta.Scheme) (*Client, error) {
	if cfg == nil || scheme == nil {
		return nil, &ConfigError{Source: "config", Message: "rest.New needs a Config and a Scheme"}
	}
	c := cfg.withDefaults()
	base, err := c.baseURL()
	if err != nil {
		return nil, err
	}
	t, err := c.newTransport()
	if err != nil {
		return nil, err
	}
	out := &Client{
		base: base, scheme: scheme, transport: t, hc: &http.Client{Transport: t},
		timeout: c.Timeout, maxRetries: max(c.MaxRetries, 0), userAgent: c.UserAgent,
		token: &tokenSource{token: c.BearerToken, file: c.BearerTokenFile},
	}
	if c.QPS > 0 {
		out.limiter = rate.NewLimiter(rate.Limit(c.QPS), c.Burst)
	}
	return out, nil
}

// Scheme returns the scheme the client decodes objects with.
func (c *Client) Scheme() *meta.Scheme { return c.scheme }

// CloseIdleConnections closes the connections the client keeps for reuse
// and is not using; running requests and watches go on.
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// request is one HTTP request to make, retries included.
type request struct {
	method      string
	path        string // escaped, from the root: "/apis/g/v/..."
	query       url.Values
	body        []byte
	contentType string
}

// send makes req, waiting for the rate limiter first and again before
// each retry. A 429, or a 5xx that carries Retry-After, is retried after
// the delay the server asked for (1s for a 429 without one, at most 30s),
// up to the client's retry budget; any other answer is returned as it is.
// The caller closes the response body.
func (c *Client) send(ctx context.Context, req request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		if c.limiter != nil {
			if err := c.limiter.Wait(ctx); err != nil {
				return nil, err
			}
		}
		resp, err := c.roundTrip(ctx, req)
		if err != nil {
			return nil, err
		}
		wait, retry := retryAfter(resp)
		if !retry || attempt >= c.maxRetries {
			return resp, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		_ = resp.Body.Close()
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// roundTrip makes one attempt at req.
func (c *Client) roundTrip(ctx context.Context, req request) (*http.Response, error) {
	u := c.base + req.path
	if len(req.query) > 0 {
		u += "?" + req.query.Encode()
	}
	var body io.Reader
	if req.body != nil {
		body = bytes.NewReader(req.body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.method, u, body)
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Accept", "application/json")
	hr.Header.Set("User-Agent", c.userAgent)
	if req.contentType != "" {
		hr.Header.Set("Content-Type", req.contentType)
	}
	token, err := c.token.get(time.Now())
	if err != nil {
		return nil, err
	}
	if token != "" {
		hr.Header.Set("Authorization", "Bearer "+token)
	}
	return c.hc.Do(hr)
}

// retryAfter says whether resp asks to be retried, and after how long: a
// 429 always (1s unless Retry-After says otherwise), a 5xx only with a
// Retry-After header, as client-go does.
func retryAfter(resp *http.Response) (time.Duration, bool) {
	code := resp.StatusCode
	if code != http.StatusTooManyRequests && code < 500 {
		return 0, false
	}
	secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	switch {
	case err == nil && secs >= 0:
		return min(time.Duration(secs)*time.Second, maxRetryAfter), true
	case code == http.StatusTooManyRequests:
		return time.Second, true
	}
	return 0, false
}

// sleep waits for d, or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// call makes a request that is not a watch, within the client's timeout,
// and decodes a successful answer into out (unless out is nil). A failed
// answer becomes the [*meta.StatusError] the server sent.
func (c *Client) call(ctx context.Context, req request, out any) error {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	resp, err := c.send(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return decodeError(resp, body)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the response: %w", req.method, req.path, err)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s %s: decoding the response: %w", req.method, req.path, err)
	}
	return nil
}
