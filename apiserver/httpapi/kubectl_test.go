package httpapi_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// kubectl runs the real kubectl against one test server, with its own
// kubeconfig, cache and home directory.
type kubectl struct {
	t    *testing.T
	path string
	dir  string
	args []string
}

func newKubectl(t *testing.T, url string) *kubectl {
	path, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed")
	}
	dir := t.TempDir()
	config := "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster: {server: " + url + "}\n" +
		"users:\n- name: test\n  user: {}\ncontexts:\n- name: test\n  context: {cluster: test, user: test, namespace: default}\n" +
		"current-context: test\n"
	kubeconfig := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return &kubectl{t: t, path: path, dir: dir, args: []string{"--kubeconfig", kubeconfig, "--cache-dir", filepath.Join(dir, "cache")}}
}

func (k *kubectl) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, k.path, append(k.args, args...)...)
	cmd.Env = []string{"HOME=" + k.dir, "PATH=" + os.Getenv("PATH")}
	return cmd
}

// run runs kubectl and returns its stdout, stderr and whether it succeeded.
func (k *kubectl) run(args ...string) (stdout, stderr string, ok bool) {
	k.t.Helper()
	var out, errOut strings.Builder
	cmd := k.command(context.Background(), args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		k.t.Fatalf("kubectl %v: %v", args, err)
	}
	return out.String(), errOut.String(), err == nil
}

// must runs kubectl, which must succeed and print want on stdout.
func (k *kubectl) must(want string, args ...string) {
	k.t.Helper()
	out, errOut, ok := k.run(args...)
	if !ok {
		k.t.Fatalf("kubectl %s failed: %s", strings.Join(args, " "), errOut)
	}
	if diff := cmp.Diff(want, out); diff != "" {
		k.t.Errorf("kubectl %s (-want +got):\n%s", strings.Join(args, " "), diff)
	}
}

// fail runs kubectl, which must fail and print want on stderr.
func (k *kubectl) fail(want string, args ...string) {
	k.t.Helper()
	out, errOut, ok := k.run(args...)
	if ok {
		k.t.Fatalf("kubectl %s succeeded: %s", strings.Join(args, " "), out)
	}
	if diff := cmp.Diff(want, errOut); diff != "" {
		k.t.Errorf("kubectl %s stderr (-want +got):\n%s", strings.Join(args, " "), diff)
	}
}

func (k *kubectl) file(name, content string) string {
	path := filepath.Join(k.dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		k.t.Fatal(err)
	}
	return path
}

const widgetsYAML = `apiVersion: test.kitchensync.io/v1
kind: Widget
metadata:
  name: w1
  labels: {app: shop}
spec:
  color: red
  size: 1
---
apiVersion: test.kitchensync.io/v1
kind: Widget
metadata:
  name: w2
spec:
  color: blue
`

// ages matches the AGE column of a fresh object.
var ages = regexp.MustCompile(`(?m) [0-9]+s$`)

func TestKubectl(t *testing.T) {
	srv := apiservertest.NewServer(t)
	k := newKubectl(t, serve(t, srv).URL)

	k.must("widget.test.kitchensync.io/w1 created\nwidget.test.kitchensync.io/w2 created\n",
		"create", "-f", k.file("widgets.yaml", widgetsYAML))
	out, _, _ := k.run("get", "widgets")
	if diff := cmp.Diff("NAME   COLOR   AGE\nw1     red     <age>\nw2     blue    <age>\n", ages.ReplaceAllString(out, " <age>")); diff != "" {
		t.Errorf("kubectl get widgets (-want +got):\n%s", diff)
	}
	out, _, _ = k.run("get", "widget", "w1", "-o", "json")
	if diff := cmp.Diff(decode(t, w1JSON), decode(t, out)); diff != "" {
		t.Errorf("kubectl get widget w1 -o json (-want +got):\n%s", diff)
	}
	k.must("widget.test.kitchensync.io/w1\n", "get", "widgets", "--field-selector", "spec.color=red", "-o", "name")
	k.must("widget.test.kitchensync.io/w2\n", "get", "widgets", "-l", "!app", "-o", "name")
	k.must("default/w1 red\ndefault/w2 blue\n", "get", "widgets", "-A", "-o", `jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.color}{"\n"}{end}`)
	k.fail(`Error from server (BadRequest): Unable to find "test.kitchensync.io/v1, Resource=widgets" that match label selector "", field selector "spec.size=1": field label not supported: spec.size`+"\n",
		"get", "widgets", "--field-selector", "spec.size=1")

	k.must("widget.test.kitchensync.io/w1 patched\n", "patch", "widget", "w1", "--type=merge", "-p", `{"spec":{"size":5}}`)
	k.must("widget.test.kitchensync.io/w1 patched\n", "patch", "widget", "w1", "--type=json", "-p", `[{"op":"add","path":"/spec/tags","value":["new"]}]`)
	k.must("widget.test.kitchensync.io/w1 patched\n", "patch", "widget", "w1", "--subresource=status", "--type=merge", "-p", `{"status":{"phase":"Ready"}}`)
	k.must("5 [\"new\"] Ready 3\n", "get", "widget", "w1", "-o", `jsonpath={.spec.size} {.spec.tags} {.status.phase} {.metadata.generation}{"\n"}`)
	k.fail(`error: application/strategic-merge-patch+json is not supported by test.kitchensync.io/v1, Kind=Widget: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`+"\n",
		"patch", "widget", "w1", "-p", `{"spec":{"size":6}}`)

	bad := k.file("bad.yaml", "apiVersion: test.kitchensync.io/v1\nkind: Widget\nmetadata: {name: w3}\nspec: {colour: red}\n")
	k.fail(`Error from server (BadRequest): error when creating "`+bad+`": Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.colour"`+"\n",
		"create", "-f", bad)

	k.must("widget.test.kitchensync.io \"w1\" deleted\n", "delete", "widget", "w1")
	k.fail("Error from server (NotFound): widgets.test.kitchensync.io \"w1\" not found\n", "get", "widget", "w1")

	out, _, _ = k.run("get", "--raw", "/apis/test.kitchensync.io/v1")
	if got := decode(t, out).(map[string]any)["groupVersion"]; got != "test.kitchensync.io/v1" {
		t.Errorf("kubectl get --raw: %s", out)
	}
}

func TestKubectlApply(t *testing.T) {
	k := newKubectl(t, serve(t, apiservertest.NewServer(t)).URL)
	gadget := "apiVersion: test.kitchensync.io/v1\nkind: Gadget\nmetadata: {name: g1}\nspec: {mode: %s}\n"
	path := k.file("g1.yaml", strings.Replace(gadget, "%s", "fast", 1))
	k.must("gadget.test.kitchensync.io/g1 created\n", "apply", "-f", path)
	k.file("g1.yaml", strings.Replace(gadget, "%s", "slow", 1))
	k.must("gadget.test.kitchensync.io/g1 configured\n", "apply", "-f", path)
	k.must("gadget.test.kitchensync.io/g1 unchanged\n", "apply", "-f", path)
	k.must("slow\n", "get", "gadget", "g1", "-o", `jsonpath={.spec.mode}{"\n"}`)
}

// TestKubectlWatch follows kubectl get -w (tables in watch events) line by
// line while the server changes: no sleeps, each step waits for
// kubectl's line.
func TestKubectlWatch(t *testing.T) {
	srv := seeded(t, apiserver.Options{})
	k := newKubectl(t, serve(t, srv).URL)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := k.command(ctx, "get", "widgets", "-w", "--output-watch-events")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	next := func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("kubectl get -w ended: %v", lines.Err())
		}
		fields := strings.Fields(lines.Text())
		return strings.Join(fields[:len(fields)-1], " ") // without the AGE column

	}
	var got []string
	for range 3 { // the header, then the two widgets of the initial list
		got = append(got, next())
	}
	c := client.New[*apiservertest.Widget](srv).Namespace("default")
	w4 := apiservertest.NewWidget("default", "w4")
	w4.Spec.Color = "green"
	if _, err := c.Create(ctx, w4, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got = append(got, next())
	if _, err := c.Patch(ctx, "w4", meta.MergePatchType, []byte(`{"spec":{"color":"teal"}}`), meta.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	got = append(got, next())
	if err := c.Delete(ctx, "w4", meta.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	got = append(got, next())
	want := []string{"EVENT NAME COLOR", "ADDED w1 red", "ADDED w2 blue", "ADDED w4 green", "MODIFIED w4 teal", "DELETED w4 teal"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kubectl get -w (-want +got):\n%s", diff)
	}
}
