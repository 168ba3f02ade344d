package rest_test

import (
	"crypto/tls"
	"encoding/base64"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
)

const testToken = "s3cret-chef-token"

// caller is who a TLS server saw making a request.
type caller struct {
	Proto string // "HTTP/2.0"
	Token string // the bearer token, if any
	Cert  string // the client certificate's common name, if any
}

// tlsServer is an httpapi server on a loopback port with TLS (HTTP/2
// enabled) and the test's PKI, accepting client certificates signed by its
// CA. It records the last caller.
type tlsServer struct {
	*httptest.Server
	mu   sync.Mutex
	last caller
}

func newTLSServer(t *testing.T, p *pki) *tlsServer {
	t.Helper()
	api := httpapi.NewHandler(apiservertest.NewServer(t))
	s := &tlsServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := caller{Proto: r.Proto, Token: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}
		if len(r.TLS.PeerCertificates) > 0 {
			c.Cert = r.TLS.PeerCertificates[0].Subject.CommonName
		}
		s.mu.Lock()
		s.last = c
		s.mu.Unlock()
		api.ServeHTTP(w, r)
	}))
	s.EnableHTTP2 = true
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	s.TLS = &tls.Config{Certificates: []tls.Certificate{p.serverCert}, ClientAuth: tls.VerifyClientCertIfGiven, ClientCAs: p.caPool}
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// call makes one request with cfg and returns who the server saw.
func (s *tlsServer) call(t *testing.T, cfg *rest.Config) (caller, error) {
	t.Helper()
	c, err := rest.New(cfg, apiservertest.NewScheme())
	if err != nil {
		return caller{}, err
	}
	defer c.CloseIdleConnections()
	_, err = c.Resource(apiservertest.GadgetsResource).List(t.Context(), meta.ListOptions{})
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, err
}

// expand writes the kubeconfig testdata/name into dir, with ${SERVER},
// ${TOKEN} and the certificates' ${*_DATA} filled in.
func expand(t *testing.T, name, dir string, s *tlsServer, p *pki) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString
	vars := map[string]string{
		"SERVER": s.URL, "TOKEN": testToken,
		"CA_DATA": b64(p.caPEM), "CERT_DATA": b64(p.clientPEM), "KEY_DATA": b64(p.clientKey),
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(os.Expand(string(raw), func(k string) string { return vars[k] })), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestKubeconfigContexts loads real-looking kubeconfig files and calls a
// TLS server with each context: the server must see the context's
// credentials, over HTTP/2.
func TestKubeconfigContexts(t *testing.T) {
	p := newPKI(t)
	s := newTLSServer(t, p)
	dir := t.TempDir()
	data := expand(t, "data.yaml", dir, s, p)
	files := expand(t, "files.yaml", dir, s, p)
	writeFile(t, filepath.Join(dir, "pki", "ca.crt"), p.caPEM)
	writeFile(t, filepath.Join(dir, "pki", "client.crt"), p.clientPEM)
	writeFile(t, filepath.Join(dir, "pki", "client.key"), p.clientKey)
	writeFile(t, filepath.Join(dir, "token"), []byte(testToken+"\n"))

	cases := []struct {
		file, context string
		want          caller
		wantNamespace string
	}{
		{data, "", caller{Proto: "HTTP/2.0", Token: testToken}, "dining-room"},
		{data, "kitchen-cert", caller{Proto: "HTTP/2.0", Cert: "waiter"}, "default"},
		{data, "kitchen-insecure", caller{Proto: "HTTP/2.0", Token: testToken}, "default"},
		{files, "", caller{Proto: "HTTP/2.0", Cert: "waiter"}, "default"},
		{files, "by-token-file", caller{Proto: "HTTP/2.0", Token: testToken}, "kitchen"},
	}
	for _, tc := range cases {
		t.Run(filepath.Base(tc.file)+"/"+tc.context, func(t *testing.T) {
			k, err := rest.LoadKubeconfig(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := k.Config(tc.context)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.call(t, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("the server saw (-want +got):\n%s", diff)
			}
			if ns, err := k.Namespace(tc.context); err != nil || ns != tc.wantNamespace {
				t.Errorf("Namespace = %q, %v; want %q", ns, err, tc.wantNamespace)
			}
		})
	}
}

// TestUntrustedServer checks that a server whose CA is not given is
// refused, and that a wrong token reaches the server as it is.
func TestUntrustedServer(t *testing.T) {
	p := newPKI(t)
	s := newTLSServer(t, p)
	_, err := s.call(t, &rest.Config{Host: s.URL, BearerToken: testToken})
	if err == nil || !strings.Contains(err.Error(), "certificate signed by unknown authority") {
		t.Errorf("call without the CA = %v, want an unknown-authority error", err)
	}
}

// TestInCluster reads the configuration a pod has: two environment
// variables and a service-account folder.
func TestInCluster(t *testing.T) {
	p := newPKI(t)
	s := newTLSServer(t, p)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "token"), []byte(testToken))
	writeFile(t, filepath.Join(dir, "ca.crt"), p.caPEM)
	writeFile(t, filepath.Join(dir, "namespace"), []byte("kitchen"))
	host, port, _ := strings.Cut(strings.TrimPrefix(s.URL, "https://"), ":")
	env := map[string]string{"KUBERNETES_SERVICE_HOST": host, "KUBERNETES_SERVICE_PORT": port}

	cfg, err := rest.InClusterConfigFrom(func(k string) string { return env[k] }, dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.call(t, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := (caller{Proto: "HTTP/2.0", Token: testToken}); got != want {
		t.Errorf("the server saw %+v, want %+v", got, want)
	}
	if ns, err := rest.InClusterNamespace(dir); err != nil || ns != "kitchen" {
		t.Errorf("InClusterNamespace = %q, %v", ns, err)
	}

	delete(env, "KUBERNETES_SERVICE_PORT")
	_, err = rest.InClusterConfigFrom(func(k string) string { return env[k] }, dir)
	if want := "in-cluster: KUBERNETES_SERVICE_PORT: not set: not running in a pod?"; err == nil || err.Error() != want {
		t.Errorf("without the port: %v, want %q", err, want)
	}
	env["KUBERNETES_SERVICE_PORT"] = port
	_, err = rest.InClusterConfigFrom(func(k string) string { return env[k] }, t.TempDir())
	if err == nil || !strings.HasPrefix(err.Error(), "in-cluster: token: ") {
		t.Errorf("without a token file: %v, want an error naming the token", err)
	}
}

// TestBadKubeconfig checks that each mistake in a kubeconfig is refused
// with an error naming the file and the field.
func TestBadKubeconfig(t *testing.T) {
	cases := []struct {
		file, context, want string
	}{
		{"bad-cluster-ref.yaml", "", `contexts["dev"].context.cluster: cluster "staging" not found`},
		{"bad-user-ref.yaml", "", `contexts["dev"].context.user: user "nobody" not found`},
		{"bad-syntax.yaml", "", `line 3: did not find expected key`},
		{"bad-unknown-field.yaml", "", `line 8: field sever not found in type rest.Cluster`},
		{"bad-base64.yaml", "", `clusters["prod"].cluster.certificate-authority-data: not valid base64: illegal base64 data at input byte 3`},
		{"bad-exec.yaml", "", `users["cloud-user"].user.exec: credential plugins are not supported: use a token or a client certificate`},
		{"bad-duplicate.yaml", "", `clusters[1].name: "prod" is used twice`},
		{"bad-no-server.yaml", "", `clusters["prod"].cluster.server: required`},
		{"bad-missing-file.yaml", "", `users["me"].user.client-certificate: stat testdata/missing.crt: no such file or directory`},
		{"bad-kind.yaml", "", `kind: "Pod" is not a kubeconfig (want kind: Config)`},
		{"bad-no-current.yaml", "", `current-context: not set, and no context was named`},
		{"bad-no-current.yaml", "prod", `contexts: context "prod" not found`},
		{"missing.yaml", "", `open testdata/missing.yaml: no such file or directory`},
	}
	for _, tc := range cases {
		t.Run(tc.file+"/"+tc.context, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			k, err := rest.LoadKubeconfig(path)
			if err == nil {
				_, err = k.Config(tc.context)
			}
			var ce *rest.ConfigError
			if want := "kubeconfig " + path + ": " + tc.want; err == nil || err.Error() != want {
				t.Errorf("got  %v\nwant %s", err, want)
			} else if !errors.As(err, &ce) {
				t.Errorf("%T is not a *rest.ConfigError", err)
			}
		})
	}
}
