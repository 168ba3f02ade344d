package apiserver_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/internal/patch"
)

// The core of the server (this package, not its subpackages) stays small
// and reads from the bottom up, as issue #23 left it: these tests keep it
// so, and say what to do when it is not.

// Limits of the core's non-test files.
const (
	maxCoreLines    = 5000 // lines, comments included (wc -l)
	maxCoreExported = 120  // exported top-level names: funcs, types, vars, consts
)

// core is the package's non-test files, parsed, with their names and
// line counts, as go list finds them.
type core struct {
	importPath string
	fset       *token.FileSet
	files      []*ast.File
	names      []string // the base name of each file
	lines      []int
	exports    map[string]string // import path -> export data file, of the dependencies
}

var (
	coreOnce sync.Once
	theCore  *core
	coreErr  error
)

// loadCore lists the package and its dependencies with go list (-export
// builds, or takes from the build cache, the dependencies' export data)
// and parses the package's files, once for all tests.
func loadCore(t *testing.T) *core {
	t.Helper()
	coreOnce.Do(func() { theCore, coreErr = listCore() })
	if coreErr != nil {
		t.Fatal(coreErr)
	}
	return theCore
}

func listCore() (*core, error) {
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,Export,GoFiles,DepOnly", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export -deps .: %v\n%s", err, stderr.Bytes())
	}
	c := &core{fset: token.NewFileSet(), exports: map[string]string{}}
	var dir string
	var goFiles []string
	for dec := json.NewDecoder(bytes.NewReader(out)); dec.More(); {
		var p struct {
			ImportPath, Dir, Export string
			GoFiles                 []string
			DepOnly                 bool
		}
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		c.exports[p.ImportPath] = p.Export
		if !p.DepOnly {
			c.importPath, dir, goFiles = p.ImportPath, p.Dir, p.GoFiles
		}
	}
	for _, name := range goFiles {
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(c.fset, filepath.Join(dir, name), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		c.files = append(c.files, f)
		c.names = append(c.names, name)
		c.lines = append(c.lines, bytes.Count(src, []byte("\n")))
	}
	return c, nil
}

func TestCoreSize(t *testing.T) {
	c := loadCore(t)
	lines := 0
	for _, n := range c.lines {
		lines += n
	}
	var exported []string
	for _, f := range c.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					exported = append(exported, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							exported = append(exported, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								exported = append(exported, n.Name)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("the core: %d files, %d non-test lines, %d exported top-level names", len(c.files), lines, len(exported))
	if lines > maxCoreLines {
		t.Errorf("package apiserver has %d non-test lines, more than %d: move a feature behind a seam into a "+
			"subpackage of its own (as apiserver/gc, apiserver/namespaces and apiserver/internal/patch are), "+
			"or trim what the core says twice; do not raise the limit", lines, maxCoreLines)
	}
	if len(exported) > maxCoreExported {
		t.Errorf("package apiserver exports %d top-level names, more than %d: vocabulary that callers pass and "+
			"get back belongs in apiserver/meta, a feature's names in the feature's package", len(exported), maxCoreExported)
	}
}

// use is one identifier in one file that resolves to a declaration in
// another: the reason for an arrow.
type use struct {
	name string
	at   token.Position
}

// coreArrows type-checks the core and returns its file-to-file arrows:
// arrows[a][b] is a use in file a of something declared in file b (a
// package-level name, a method or a struct field), as go/types resolves
// it.
func coreArrows(t *testing.T, c *core) map[string]map[string]use {
	t.Helper()
	imp := importer.ForCompiler(c.fset, "gc", func(path string) (io.ReadCloser, error) {
		if e := c.exports[path]; e != "" {
			return os.Open(e)
		}
		return nil, fmt.Errorf("go list gave no export data for %s", path)
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, err := (&types.Config{Importer: imp}).Check(c.importPath, c.fset, c.files, info)
	if err != nil {
		t.Fatal(err)
	}
	fileOf := func(pos token.Pos) string { return filepath.Base(c.fset.Position(pos).Filename) }
	arrows := map[string]map[string]use{}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || !obj.Pos().IsValid() {
			continue
		}
		a, b := fileOf(id.Pos()), fileOf(obj.Pos())
		if a == b {
			continue
		}
		if arrows[a] == nil {
			arrows[a] = map[string]use{}
		}
		u := use{id.Name, c.fset.Position(id.Pos())}
		if old, ok := arrows[a][b]; !ok || u.at.Offset < old.at.Offset {
			arrows[a][b] = u // the first use in the file: the same on every run
		}
	}
	return arrows
}

// TestCoreFilesFormADAG checks that the core's files can be read from the
// bottom up: no file uses, even through others, something declared in a
// file that uses it. It logs a reading order (go test -run
// TestCoreFilesFormADAG -v).
func TestCoreFilesFormADAG(t *testing.T) {
	c := loadCore(t)
	arrows := coreArrows(t, c)
	for _, cycle := range cycles(c.names, arrows) {
		var why []string
		for i, a := range cycle {
			b := cycle[(i+1)%len(cycle)]
			u := arrows[a][b]
			why = append(why, fmt.Sprintf("  %s uses %s, declared in %s (%s:%d)", a, u.name, b, a, u.at.Line))
		}
		t.Errorf("the files of package apiserver form a cycle, so they have no reading order:\n%s\n"+
			"Each file may use only what the files below it declare (see \"Where to find what\" in doc.go): "+
			"declare a self-contained type in a lower file that does not mention Server, and put the "+
			"Server's methods that use it in a file above server.go; or move the function to the file "+
			"it belongs with.", strings.Join(why, "\n"))
	}
	if t.Failed() {
		return
	}
	lines := map[string]int{}
	for i, n := range c.names {
		lines[n] = c.lines[i]
	}
	var order []string
	for _, f := range readingOrder(c.names, arrows) {
		order = append(order, fmt.Sprintf("%s %d", f, lines[f]))
	}
	t.Logf("a reading order, bottom up: %s", strings.Join(order, ", "))
}

// cycles returns, for each set of files that reach each other through
// arrows (a strongly connected component), one shortest cycle in it.
func cycles(files []string, arrows map[string]map[string]use) [][]string {
	var out [][]string
	seen := map[string]bool{}
	for _, start := range files {
		if seen[start] {
			continue
		}
		cycle := shortestCycle(start, arrows)
		if cycle == nil {
			continue
		}
		out = append(out, cycle)
		for _, f := range files { // the rest of start's component
			if reaches(start, f, arrows) && reaches(f, start, arrows) {
				seen[f] = true
			}
		}
	}
	return out
}

// shortestCycle returns the shortest path of arrows from start back to
// start (start first), or nil.
func shortestCycle(start string, arrows map[string]map[string]use) []string {
	prev := map[string]string{}
	queue := []string{start}
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, b := range sortedKeys(arrows[a]) {
			if b == start {
				path := []string{a}
				for path[0] != start {
					path = append([]string{prev[path[0]]}, path...)
				}
				return path
			}
			if _, ok := prev[b]; !ok {
				prev[b] = a
				queue = append(queue, b)
			}
		}
	}
	return nil
}

func reaches(from, to string, arrows map[string]map[string]use) bool {
	seen := map[string]bool{from: true}
	for queue := []string{from}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == to {
			return true
		}
		for b := range arrows[queue[0]] {
			if !seen[b] {
				seen[b] = true
				queue = append(queue, b)
			}
		}
	}
	return false
}

// readingOrder returns the files of an acyclic graph bottom up, by
// level: a file that uses none comes at level 0, any other one level
// above the highest file it uses; in name order within a level.
func readingOrder(files []string, arrows map[string]map[string]use) []string {
	level := map[string]int{}
	var levelOf func(f string) int
	levelOf = func(f string) int {
		if l, ok := level[f]; ok {
			return l
		}
		l := 0
		for b := range arrows[f] {
			l = max(l, levelOf(b)+1)
		}
		level[f] = l
		return l
	}
	order := slices.Clone(files)
	slices.SortFunc(order, func(a, b string) int {
		return cmp.Or(cmp.Compare(levelOf(a), levelOf(b)), strings.Compare(a, b))
	})
	return order
}

func sortedKeys(m map[string]use) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestPatchCopyLimit checks that a JSON patch's copies may add as much as
// the largest object the server stores by default, as in kube-apiserver.
func TestPatchCopyLimit(t *testing.T) {
	if patch.MaxCopyBytes != apiserver.DefaultMaxObjectBytes {
		t.Errorf("internal/patch.MaxCopyBytes is %d, DefaultMaxObjectBytes %d: set them to the same value",
			patch.MaxCopyBytes, apiserver.DefaultMaxObjectBytes)
	}
}
