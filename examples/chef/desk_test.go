package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
)

// These tests run the chef as the learner does: a binary of its own (built
// once with go build), started as a separate process against a front desk
// served over HTTP by the test.

var (
	buildOnce sync.Once
	chefBin   string
	buildErr  error
)

// chefBinary builds this command into a temporary directory, once.
func chefBinary(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not installed")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kitchensync-chef-")
		if err != nil {
			buildErr = err
			return
		}
		chefBin = filepath.Join(dir, "chef")
		out, err := exec.Command(goTool, "build", "-o", chefBin, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return chefBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if chefBin != "" {
		os.RemoveAll(filepath.Dir(chefBin))
	}
	os.Exit(code)
}

// frontDesk is a restaurant without a kitchen, serving its API on a
// loopback port, and a kubeconfig for it.
type frontDesk struct {
	*restaurant.Restaurant
	url, kubeconfig string
}

// openDesk serves a desk until the test ends.
func openDesk(t *testing.T) *frontDesk {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, err := restaurant.Open(ctx, restaurant.Config{DeskOnly: true, Events: true})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: httpapi.NewHandler(r.Server)}
	var wg sync.WaitGroup
	wg.Go(func() { _ = srv.Serve(ln) })
	wg.Go(func() { _ = r.Run(ctx) })
	t.Cleanup(func() {
		cancel()
		_ = srv.Close()
		wg.Wait()
	})
	d := &frontDesk{Restaurant: r, url: "http://" + ln.Addr().String()}
	d.kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	cfg := strings.NewReplacer("URL", d.url).Replace(kubeconfigTemplate)
	if err := os.WriteFile(d.kubeconfig, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return d
}

const kubeconfigTemplate = `apiVersion: v1
kind: Config
clusters:
- name: desk
  cluster: {server: URL}
users:
- name: chef
  user: {}
contexts:
- name: desk
  context: {cluster: desk, user: chef, namespace: dinner}
current-context: desk
`

// chefProcess is a running chef binary.
type chefProcess struct {
	id  string
	cmd *exec.Cmd
	out *lockedBuffer
}

// startChef starts a chef process against d; it is killed when the test
// ends, if it still runs.
func startChef(t *testing.T, d *frontDesk, id string, args ...string) *chefProcess {
	t.Helper()
	args = append([]string{"-kubeconfig", d.kubeconfig, "-id", id, "-minute", "20ms",
		"-lease-duration", "3s", "-renew-deadline", "2s", "-retry-period", "500ms"}, args...)
	p := &chefProcess{id: id, cmd: exec.Command(chefBinary(t), args...), out: &lockedBuffer{}}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
		if t.Failed() {
			t.Logf("%s said:\n%s", id, p.out.String())
		}
	})
	return p
}

// lockedBuffer collects a process's output.
type lockedBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// kubectl runs kubectl against d and returns its output.
func kubectl(t *testing.T, d *frontDesk, args ...string) string {
	t.Helper()
	out, err := kubectlCmd(t, d, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func kubectlCmd(t *testing.T, d *frontDesk, args ...string) *exec.Cmd {
	t.Helper()
	path, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed")
	}
	home := t.TempDir()
	cmd := exec.Command(path, append([]string{"--kubeconfig", d.kubeconfig, "--cache-dir", filepath.Join(home, "cache")}, args...)...)
	cmd.Env = []string{"HOME=" + home}
	return cmd
}

// readLines sends r's lines to a channel, closed at EOF.
func readLines(r io.Reader) <-chan string {
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		s := bufio.NewScanner(r)
		for s.Scan() {
			lines <- s.Text()
		}
	}()
	return lines
}

// deadline is the generous bound of a test that waits for processes: it
// fails rather than hangs; the assertions never depend on it.
const deadline = 90 * time.Second
