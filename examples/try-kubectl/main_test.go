package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines to write
// while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start serves the seeded kitchen on a free port until the test ends, and
// returns its URL, its narration and a stop function that waits for the
// server to shut down.
func start(t *testing.T) (url string, log *syncBuffer, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := newServer(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	log = &syncBuffer{}
	errc := make(chan error, 1)
	go func() { errc <- serve(ctx, ln, narrate(log, httpapi.NewHandler(srv))) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-errc; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), log, stop
}

func TestNarration(t *testing.T) {
	url, log, stop := start(t)
	resp, err := http.Get(url + "/apis/menu.example.com/v1/namespaces/default/orders?labelSelector=section%3Dvip")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"name":"table-1"`) || strings.Contains(string(body), `"name":"table-2"`) {
		t.Errorf("list of vip orders: %s", body)
	}

	// A watch, left open: stopping the server ends it.
	resp, err = http.Get(url + "/apis/menu.example.com/v1/dishes?watch=true")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.HasPrefix(first, `{"type":"ADDED","object":{"apiVersion":"menu.example.com/v1","kind":"Dish"`) {
		t.Fatalf("first watch event %q: %v", first, err)
	}
	stop()

	want := "[apiserver] GET /apis/menu.example.com/v1/namespaces/default/orders?labelSelector=section%3Dvip 200\n" +
		"[apiserver] GET /apis/menu.example.com/v1/dishes?watch=true 200 (watching)\n" +
		"[apiserver] GET /apis/menu.example.com/v1/dishes?watch=true watch ended\n"
	if diff := cmp.Diff(want, log.String()); diff != "" {
		t.Errorf("narration (-want +got):\n%s", diff)
	}
}

// TestKubectlGetOrders shows what the example is for: kubectl prints the
// kitchen's orders with the server's columns.
func TestKubectlGetOrders(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed")
	}
	url, _, _ := start(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(config, []byte(kubeconfigFor(url)), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(kubectl, "--kubeconfig", config, "--cache-dir", filepath.Join(dir, "cache"), "get", "orders")
	cmd.Env = []string{"HOME=" + dir}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl get orders: %v: %s", err, out)
	}
	got := regexp.MustCompile(`(?m) [0-9]+s$`).ReplaceAllString(string(out), " 0s")
	want := "NAME      SECTION   TABLE   PHASE   AGE\n" +
		"table-1   vip       1               0s\n" +
		"table-2   terrace   2               0s\n" +
		"table-3   main      3               0s\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kubectl get orders (-want +got):\n%s", diff)
	}
}

// TestRun runs the program with a context that is already done: it
// prints the introduction, writes the kubeconfig, serves nothing and
// cleans up after itself.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	if err := run(ctx, []string{"-addr", "127.0.0.1:0", "-duration", "1h"}, &out); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\[apiserver\] kubeconfig: (\S+)\n`).FindStringSubmatch(out.String())
	if m == nil || !strings.Contains(out.String(), "kubectl get orders --field-selector spec.section=vip") {
		t.Fatalf("introduction:\n%s", out.String())
	}
	if _, err := os.Stat(m[1]); !os.IsNotExist(err) {
		t.Errorf("the kubeconfig %s is still there: %v", m[1], err)
	}
}

// Each bad command line is refused as such (main exits 2 on badUsage),
// saying what would do, and starts nothing.
func TestRunBadFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-addr"}, "flag needs an argument: -addr"},
		{[]string{"-seed", "abc"}, `unexpected argument "abc" (flags come before it; a true/false flag takes its value after =`},
		{[]string{"-seed", "false"}, `unexpected argument "false"`},
		{[]string{"-duration", "-1m"}, "-1m0s is out of range: give one from 0s to 24h0m0s"},
		{[]string{"-duration", "soon"}, "not a duration"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), tc.args, &out)
		var bad badUsage
		if !errors.As(err, &bad) || !strings.Contains(err.Error()+out.String(), tc.want) {
			t.Errorf("run %q: %v\n%s\nwant a bad usage saying %q", tc.args, err, out.String(), tc.want)
		}
		if strings.Contains(out.String(), "serving") || strings.Contains(out.String(), "kubeconfig:") {
			t.Errorf("run %q started serving:\n%s", tc.args, out.String())
		}
	}
}

// TestHelp: -h prints the flags and starts nothing; main exits 0 on it.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"-h"}, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("run -h = %v, want flag.ErrHelp", err)
	}
	if !strings.HasPrefix(out.String(), "Usage of try-kubectl:\n") || strings.Contains(out.String(), "serving") {
		t.Errorf("run -h printed %q, want the usage only", out.String())
	}
}

// A path made to look like a narration line of its own (an escape
// sequence, a newline, a forged request) is printed quoted, on one line.
func TestNarrationQuotesWhatClientsSend(t *testing.T) {
	url, log, stop := start(t)
	resp, err := http.Get(url + "/apis/%1b%5b31mRED%1b%5b0m%0a%5bapiserver%5d%20DELETE%20/forged%20200")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	stop()
	want := `[apiserver] GET "/apis/\x1b[31mRED\x1b[0m\n[apiserver] DELETE /forged 200" 404` + "\n"
	if diff := cmp.Diff(want, log.String()); diff != "" {
		t.Errorf("narration (-want +got):\n%s", diff)
	}
}

func TestRunRefusesOpenAddressWithoutToken(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8001"} {
		var out bytes.Buffer
		err := run(context.Background(), []string{"-addr", addr}, &out)
		if err == nil || !strings.Contains(err.Error(), "without -token") {
			t.Errorf("run -addr %s = %v, want a refusal naming -token", addr, err)
		}
	}
}

func TestDoorFlags(t *testing.T) {
	if _, err := (doorFlags{token: "t", certFile: "cert.pem"}).options("0.0.0.0:0"); err == nil {
		t.Error("-tls-cert without -tls-key was accepted")
	}
	if _, err := (doorFlags{acceptHosts: "("}).options("127.0.0.1:0"); err == nil {
		t.Error("a bad -accept-hosts was accepted")
	}
	want := "apiVersion: v1\nkind: Config\nclusters:\n- name: kitchensync\n  cluster:\n    server: https://10.0.0.1:8001\n" +
		"    certificate-authority: \"/etc/cert.pem\"\nusers:\n- name: kitchensync\n  user: {token: \"s3cret\"}\n"
	got := kubeconfigWith("https://10.0.0.1:8001", doorFlags{token: "s3cret", certFile: "/etc/cert.pem"})
	if !strings.HasPrefix(got, want) {
		t.Errorf("kubeconfig:\n%s\nwant it to start with\n%s", got, want)
	}
}
