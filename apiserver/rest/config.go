package rest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// The client-side rate limit a [Config] gets when it sets none: client-go's
// defaults, 5 requests per second with bursts of 10. A controller that
// lists and watches makes a handful of requests in a minute; a program
// that writes in bulk raises them (or sets QPS below zero to turn the
// limit off).
const (
	DefaultQPS   = 5
	DefaultBurst = 10
)

// DefaultMaxRetries is how often a request answered 429 Too Many Requests
// (or a 5xx with a Retry-After header) is sent again before its error is
// returned, as client-go's default.
const DefaultMaxRetries = 10

// maxRetryAfter caps how long one Retry-After makes a request wait, so
// that a server asking for an hour does not stall a caller for an hour.
const maxRetryAfter = 30 * time.Second

// Config says how to reach an API server and who to be there, like
// client-go's rest.Config: the server's URL, the credentials, the TLS
// settings and the client's manners (rate limit, timeout, retries). Make
// one by hand, from a kubeconfig file ([LoadKubeconfig]) or from a pod's
// environment ([InClusterConfig]), then call [New].
//
// The zero value of each field means "the default" (see each field).
type Config struct {
	// Host is the server's base URL, e.g. "https://10.0.0.1:6443" or
	// "http://127.0.0.1:8080". A bare host:port means https.
	Host string

	// BearerToken is sent as "Authorization: Bearer <token>".
	BearerToken string
	// BearerTokenFile, when set, is read for the token instead, again
	// before each request at most once a minute, so that a rotated
	// service-account token is picked up (as client-go does).
	BearerTokenFile string

	// TLSClientConfig holds the certificates; it matters for https hosts.
	TLSClientConfig TLSClientConfig

	// QPS and Burst limit the requests this client makes, in a token
	// bucket shared by all its requests (watches included, as in
	// client-go): 0 means [DefaultQPS] and [DefaultBurst]; a QPS below
	// zero turns the limit off.
	QPS   float32
	Burst int

	// Timeout bounds each request that is not a watch, reading the
	// response body included; 0 means no bound beyond the caller's
	// context, as in client-go. Watches run until they are stopped.
	Timeout time.Duration

	// MaxRetries is how many times a request answered 429 (or a 5xx that
	// carries Retry-After) is sent again, after waiting what the server
	// asked (at most 30s each time); 0 means [DefaultMaxRetries], below
	// zero means never.
	MaxRetries int

	// UserAgent is sent with every request (default "kitchensync-rest").
	UserAgent string

	// Dial, when set, makes the client's network connections, as
	// client-go's Config.Dial does: e.g. through a tunnel, or to an
	// in-memory listener.
	Dial func(ctx context.Context, network, address string) (net.Conn, error)
}

// TLSClientConfig holds the TLS settings of a [Config]. Each certificate
// may be given as PEM data or as a file; data wins when both are set.
type TLSClientConfig struct {
	// Insecure skips checking the server's certificate. For tests only.
	Insecure bool
	// ServerName overrides the name checked in the server's certificate.
	ServerName string

	// CAFile and CAData are the certificate authorities to trust (PEM),
	// instead of the system's.
	CAFile string
	CAData []byte

	// CertFile/CertData and KeyFile/KeyData are the client certificate
	// and its key (PEM), for servers that authenticate clients by
	// certificate.
	CertFile string
	CertData []byte
	KeyFile  string
	KeyData  []byte
}

// withDefaults returns a copy of c with the zero fields filled in.
func (c Config) withDefaults() Config {
	if c.QPS == 0 {
		c.QPS = DefaultQPS
	}
	if c.Burst <= 0 {
		c.Burst = DefaultBurst
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.UserAgent == "" {
		c.UserAgent = "kitchensync-rest"
	}
	return c
}

// tlsConfig builds the crypto/tls settings, reading any files named. It
// returns nil when nothing is set, so that the transport's defaults hold.
func (t TLSClientConfig) tlsConfig() (*tls.Config, error) {
	out := &tls.Config{InsecureSkipVerify: t.Insecure, ServerName: t.ServerName, MinVersion: tls.VersionTLS12}
	ca, err := dataOrFile(t.CAData, t.CAFile, "certificate-authority")
	if err != nil {
		return nil, err
	}
	if len(ca) > 0 {
		out.RootCAs = x509.NewCertPool()
		if !out.RootCAs.AppendCertsFromPEM(ca) {
			return nil, &ConfigError{Source: "config", Field: "certificate-authority", Message: "no PEM certificate found"}
		}
	}
	cert, err := dataOrFile(t.CertData, t.CertFile, "client-certificate")
	if err != nil {
		return nil, err
	}
	key, err := dataOrFile(t.KeyData, t.KeyFile, "client-key")
	if err != nil {
		return nil, err
	}
	switch {
	case len(cert) > 0 && len(key) == 0:
		return nil, &ConfigError{Source: "config", Field: "client-key", Message: "a client certificate needs its key"}
	case len(cert) == 0 && len(key) > 0:
		return nil, &ConfigError{Source: "config", Field: "client-certificate", Message: "a client key needs its certificate"}
	case len(cert) > 0:
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, &ConfigError{Source: "config", Field: "client-certificate", Message: err.Error()}
		}
		out.Certificates = []tls.Certificate{pair}
	}
	return out, nil
}

// dataOrFile returns data, or else the content of file (if named).
func dataOrFile(data []byte, file, field string) ([]byte, error) {
	if len(data) > 0 || file == "" {
		return data, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, &ConfigError{Source: "config", Field: field, Message: err.Error()}
	}
	return b, nil
}

// baseURL checks and normalises c.Host: a scheme is added when missing,
// and a trailing slash dropped.
func (c Config) baseURL() (string, error) {
	host := strings.TrimSuffix(c.Host, "/")
	switch {
	case host == "":
		return "", &ConfigError{Source: "config", Field: "host", Message: "no server given"}
	case !strings.Contains(host, "://"):
		host = "https://" + host
	case !strings.HasPrefix(host, "http://") && !strings.HasPrefix(host, "https://"):
		return "", &ConfigError{Source: "config", Field: "host", Message: fmt.Sprintf("%q: the scheme must be http or https", c.Host)}
	}
	return host, nil
}

// newTransport builds the HTTP transport: connections are kept and
// reused (up to 25 idle per host, as client-go keeps), and HTTP/2 is
// negotiated on TLS connections.
func (c Config) newTransport() (*http.Transport, error) {
	tlsConf, err := c.TLSClientConfig.tlsConfig()
	if err != nil {
		return nil, err
	}
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         dialer.DialContext,
		TLSClientConfig:     tlsConf,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: 25,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	if c.Dial != nil {
		t.DialContext = c.Dial
		t.Proxy = nil
	}
	return t, nil
}
