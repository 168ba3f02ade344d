package realserver

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// enableVar must be "1" for the suite to run.
const enableVar = "KITCHENSYNC_REAL_APISERVER"

// real is a running kube-apiserver: its URL and a client that trusts its
// certificate and sends its bearer token.
type real struct {
	url    string
	client *http.Client
	// kubeconfig is start.sh's kubeconfig, for clients of their own.
	kubeconfig string
}

// startReal starts a real kube-apiserver with the tools' start.sh and
// stops it with stop.sh when the test ends. It skips the test when the
// suite is not enabled or the binaries are not built.
func startReal(t testing.TB) *real {
	t.Helper()
	if os.Getenv(enableVar) != "1" {
		t.Skip("differential suite against a real kube-apiserver: set " + enableVar +
			"=1 to run it (CI does not: it needs binaries built by ../shared/tools/real-apiserver/build.sh)")
	}
	tools, err := toolsDir()
	if err != nil {
		t.Skip(err.Error())
	}
	if !binariesBuilt() {
		t.Skip("real kube-apiserver not built: run ../shared/tools/real-apiserver/build.sh (20–35 min); " +
			"CI never builds it")
	}
	out, err := exec.Command(filepath.Join(tools, "start.sh")).Output()
	if err != nil {
		t.Fatalf("start.sh: %v", err)
	}
	vars := parseVars(string(out))
	t.Cleanup(func() {
		if err := exec.Command(filepath.Join(tools, "stop.sh"), vars["DIR"]).Run(); err != nil {
			t.Errorf("stop.sh: %v", err)
		}
	})
	r, err := loadKubeconfig(vars["KUBECONFIG"])
	if err != nil {
		t.Fatal(err)
	}
	r.kubeconfig = vars["KUBECONFIG"]
	return r
}

// toolsDir finds shared/tools/real-apiserver: named by
// KITCHENSYNC_REAL_APISERVER_TOOLS, or in an ancestor of the working
// directory (the repository's parent, for a checkout beside shared/).
func toolsDir() (string, error) {
	if d := os.Getenv(enableVar + "_TOOLS"); d != "" {
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		d := filepath.Join(dir, "shared", "tools", "real-apiserver")
		if _, err := os.Stat(filepath.Join(d, "start.sh")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("real-apiserver tools not found: no shared/tools/real-apiserver " +
				"above the working directory; set " + enableVar + "_TOOLS")
		}
		dir = parent
	}
}

// binariesBuilt reports whether build.sh's cache holds both binaries.
func binariesBuilt() bool {
	cache := os.Getenv("KAS_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return false
		}
		cache = filepath.Join(home, ".cache", "real-apiserver")
	}
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(cache, "bin", b)); err != nil {
			return false
		}
	}
	return true
}

// parseVars reads start.sh's NAME=value lines.
func parseVars(out string) map[string]string {
	vars := map[string]string{}
	for line := range strings.Lines(out) {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			vars[k] = v
		}
	}
	return vars
}

// loadKubeconfig reads the server URL, CA file and token from start.sh's
// kubeconfig, which has one cluster and one user, one key per line.
func loadKubeconfig(path string) (*real, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	keys := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if ok {
			keys[k] = strings.TrimSpace(v)
		}
	}
	ca, err := os.ReadFile(keys["certificate-authority"])
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return nil, errors.New("kubeconfig: no certificate in " + keys["certificate-authority"])
	}
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	client := &http.Client{Timeout: 15 * time.Second, Transport: bearer{keys["token"], tr}}
	return &real{url: keys["server"], client: client}, nil
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}
