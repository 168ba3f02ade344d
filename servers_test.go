package kitchensync_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every HTTP server that the examples, the kitchen and the test kit
// start has a ReadHeaderTimeout and an IdleTimeout, so that a client that
// sends half a header, or keeps an idle connection open, does not hold a
// connection for ever (kube-apiserver sets both too). A function that
// makes an http.Server, or an httptest server unstarted, must set both;
// httptest.NewServer, which starts before they can be set, is refused.
// (apiserver/rest/resttest serves in-memory pipes inside testing/synctest
// bubbles, where no one else can connect: it is not walked.)
func TestEveryServerHasTimeouts(t *testing.T) {
	var servers int
	for _, root := range []string{"examples", "kitchen", "apiserver/envtest"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			servers += checkServerTimeouts(t, path)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if servers < 5 { // try-kubectl, the live view, two tour chapters, envtest, the explorer
		t.Errorf("found %d functions that start servers, want at least 5: is the walk looking in the right place?", servers)
	}
}

// checkServerTimeouts checks each function of the file path that makes a
// server, and returns how many there are.
func checkServerTimeouts(t *testing.T, path string) int {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		body := string(src[fset.Position(fn.Body.Pos()).Offset:fset.Position(fn.Body.End()).Offset])
		at := fset.Position(fn.Pos())
		if strings.Contains(body, "httptest.NewServer(") || strings.Contains(body, "httptest.NewTLSServer(") {
			t.Errorf("%s: %s starts an httptest server before its timeouts can be set: use httptest.NewUnstartedServer", at, fn.Name.Name)
			n++
			continue
		}
		if !strings.Contains(body, "http.Server{") && !strings.Contains(body, "httptest.NewUnstartedServer(") {
			continue
		}
		n++
		for _, field := range []string{"ReadHeaderTimeout", "IdleTimeout"} {
			if !strings.Contains(body, field) {
				t.Errorf("%s: %s makes a server without a %s", at, fn.Name.Name, field)
			}
		}
	}
	return n
}
