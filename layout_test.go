package kitchensync_test

import (
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The floors of the house (DESIGN.md, "the house as it should stand"):
// the vocabulary stands on the standard library alone, and the machinery
// on the vocabulary, never on the server. These tests keep them so.

// goList runs go list with args and returns its output's lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.Fields(string(out))
}

func TestVocabularyStandsOnTheStandardLibrary(t *testing.T) {
	const meta = "github.com/kitchensync/kitchensync/apiserver/meta"
	for _, dep := range goList(t, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./apiserver/meta") {
		if dep != meta {
			t.Errorf("apiserver/meta depends on %s (go list -deps ./apiserver/meta): the vocabulary imports only the "+
				"standard library, so that everything can stand on it; move what needs %s into the package that uses it", dep, dep)
		}
	}
}

// machinery are the packages that must not stand on the server.
var machinery = []string{"./store", "./informer", "./workqueue", "./reconcile"}

// serverOnly says whether a package is one only a server, or its HTTP
// client, needs.
func serverOnly(path string) bool {
	for _, p := range []string{"net/http", "crypto/tls"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	for _, p := range []string{"github.com/evanphx/json-patch", "go.yaml.in/yaml", "google.golang.org/protobuf"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

func TestMachineryDoesNotStandOnTheServer(t *testing.T) {
	// Each line: a package, then its imports.
	imports := map[string][]string{}
	listed := goList(t, append([]string{"-deps", "-f", "{{.ImportPath}}{{range .Imports}},{{.}}{{end}}"}, machinery...)...)
	for _, line := range listed {
		fields := strings.Split(line, ",")
		imports[fields[0]] = fields[1:]
	}
	for _, root := range goList(t, machinery...) {
		// The first server-only package root reaches, breadth first, and how.
		prev := map[string]string{root: ""}
		for queue := []string{root}; len(queue) > 0; queue = queue[1:] {
			p := queue[0]
			if serverOnly(p) {
				chain := []string{p}
				for q := prev[p]; q != ""; q = prev[q] {
					chain = append(chain, q)
				}
				slices.Reverse(chain)
				t.Errorf("%s depends on %s: %s.\nThe machinery (store, informer, workqueue, reconcile) stands on the "+
					"vocabulary, not on the server (DESIGN.md): import apiserver/meta or apiserver/client, not the "+
					"server or its HTTP and encoding parts; an interface the machinery needs belongs to the machinery",
					root, p, strings.Join(chain, " -> "))
				break
			}
			for _, q := range imports[p] {
				if _, ok := prev[q]; !ok {
					prev[q] = p
					queue = append(queue, q)
				}
			}
		}
	}
}
