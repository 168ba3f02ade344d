package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/rest"
)

func TestParseRefusesAReachableAddressWithoutAToken(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for no error
	}{
		{[]string{"-addr", "127.0.0.1:0"}, ""},
		{[]string{"-addr", "localhost:8080"}, ""},
		{[]string{"-addr", "[::1]:0"}, ""},
		{[]string{"-addr", ":8080"}, `-addr ":8080" can be reached from other machines: add -token TOKEN (or -token-file FILE)`},
		{[]string{"-addr", "0.0.0.0:8080"}, "add -token TOKEN"},
		{[]string{"-addr", "192.168.1.5:8080", "-accept-hosts", "."}, "add -token TOKEN"},
		{[]string{"-addr", ":8080", "-token", "s3cret"}, ""},
		{[]string{"-addr", ":8080", "-token-file", "/dev/null"}, ""},
		{[]string{"-token", "a", "-token-file", "b"}, "give one of them"},
		{[]string{"-tls-cert", "c.pem"}, "-tls-cert and -tls-key go together"},
		{[]string{"-addr", "nonsense"}, `-addr "nonsense"`},
	} {
		_, err := parse(tc.args, io.Discard)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("parse %q: %v, want an error containing %q", tc.args, err, tc.want)
		}
	}
}

// TestKubeconfigCarriesTheTokenAndCertificate serves over HTTPS with a
// token and a self-signed certificate, and uses the kubeconfig it writes
// with examples/chef's loader and with kubectl.
func TestKubeconfigCarriesTheTokenAndCertificate(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	config := filepath.Join(dir, "kitchen.yaml")
	url := serve(t, "-token", "s3cret", "-tls-cert", cert, "-tls-key", key, "-kubeconfig", config)
	if !strings.HasPrefix(url, "https://127.0.0.1:") || !strings.HasSuffix(url, "/?token=s3cret") {
		t.Errorf("printed address %q, want https://127.0.0.1:PORT/?token=s3cret", url)
	}
	k, err := rest.LoadKubeconfig(config)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := k.Config("")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.BearerToken != "s3cret" || len(cfg.TLSClientConfig.CAData) == 0 || !strings.HasPrefix(cfg.Host, "https://") {
		t.Errorf("kubeconfig gives host %q, token %q, %d bytes of CA", cfg.Host, cfg.BearerToken, len(cfg.TLSClientConfig.CAData))
	}
	assertHTTP2(t, strings.TrimSuffix(url, "/?token=s3cret")+"/version", cfg.TLSClientConfig.CAData, "s3cret")
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed")
	}
	cmd := exec.Command(kubectl, "--kubeconfig", config, "--cache-dir", filepath.Join(dir, "cache"), "get", "orders")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "No resources found in dinner namespace") {
		t.Errorf("kubectl get orders: %v: %s", err, out)
	}
	wrong := filepath.Join(dir, "wrong.yaml")
	if err := os.WriteFile(wrong, []byte(door{token: "nope"}.kubeconfig(cfg.Host, "dinner")), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(kubectl, "--kubeconfig", wrong, "--insecure-skip-tls-verify", "--cache-dir", filepath.Join(dir, "cache"), "get", "orders")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "Unauthorized") {
		t.Errorf("kubectl get orders with a wrong token: %v: %s", err, out)
	}
}

// assertHTTP2 checks that a client offering HTTP/2 gets it from the
// server at url over TLS (trusting the certificate caPEM), as client-go
// gets it from kube-apiserver.
func assertHTTP2(t *testing.T, url string, caPEM []byte, token string) {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}}
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Errorf("GET %s: %s over %s, want 200 over HTTP/2.0", url, resp.Status, resp.Proto)
	}
}

// serve runs the command with args until the test ends, and returns the
// page's address it prints.
func serve(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"-addr", "127.0.0.1:0", "-minute", "5ms"}, args...), pw) }()
	t.Cleanup(func() {
		cancel()
		go io.Copy(io.Discard, pr)
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "the pass is open: ")
	if !ok {
		t.Fatalf("first line %q does not give the address", line)
	}
	return url
}

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key
// into dir.
func selfSigned(t *testing.T, dir string) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kitchensync"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for path, block := range map[string]*pem.Block{cert: {Type: "CERTIFICATE", Bytes: der}, key: {Type: "EC PRIVATE KEY", Bytes: keyDER}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return cert, key
}
