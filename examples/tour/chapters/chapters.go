package chapters

import (
	"embed"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The three parts of the tour.
const (
	PartTour  = "The guided tour"
	PartBuild = "Build one yourself"
	PartWrong = "What the stories get wrong"
)

// A Chapter is one step of the tour: a function of this package that
// plays it, writing what happens to w. The function's doc comment is the
// chapter's prose, its body is the chapter's code.
type Chapter struct {
	Number int    // 1, 2, ... in reading order
	Part   string // PartTour, PartBuild or PartWrong
	Title  string // a few words for -list
	Run    func(w io.Writer)
	// Step is the step of examples/build the chapter plays (see package
	// build), 0 for none: the tour shows what the step adds to the
	// program, and how to break it.
	Step int
}

// Func returns the name of the chapter's function, e.g. "AnOrderIsAnObject".
func (c Chapter) Func() string {
	full := runtime.FuncForPC(reflect.ValueOf(c.Run).Pointer()).Name()
	return full[strings.LastIndex(full, ".")+1:]
}

// Example returns the name of the root package's Example that plays the
// chapter and pins its output, e.g. "Example_step01_anOrderIsAnObject".
func (c Chapter) Example() string {
	f := c.Func()
	r, n := utf8.DecodeRuneInString(f)
	return fmt.Sprintf("Example_step%02d_%c%s", c.Number, unicode.ToLower(r), f[n:])
}

// All returns the chapters in reading order.
func All() []Chapter {
	tour := []struct {
		title string
		run   func(io.Writer)
	}{
		{"An order is an object", AnOrderIsAnObject},
		{"Two waiters, one order: 409 Conflict", Conflict},
		{"The front desk streams changes: watch", Watch},
		{"The same watch over HTTP", WatchOverHTTP},
		{"The runner remembers: informer and cache", RunnerRemembers},
		{"The ticket rail: dedup and priority", TicketRail},
		{"The chef: a reconciler", Chef},
		{"Black truffle mid-cooking", Truffle},
		{"The table leaves: finalizer and garbage collector", Cancel},
		{"A chef that survives a disconnect", Disconnect},
		{"The stale chef: read your own writes", StaleChef},
		{"Your own controller", YourOwnController},
		{"Errors back off", Backoff},
	}
	var all []Chapter
	for _, c := range tour {
		all = append(all, Chapter{Number: len(all) + 1, Part: PartTour, Title: c.title, Run: c.run})
	}
	for _, c := range buildAlong {
		all = append(all, Chapter{Number: len(all) + 1, Part: PartBuild, Title: c.title, Run: c.run, Step: c.step})
	}
	for _, c := range wrong {
		all = append(all, Chapter{Number: len(all) + 1, Part: PartWrong, Title: c.title, Run: c.run})
	}
	return all
}

// buildAlong lists the chapters of the build-along part: the steps of
// examples/build, then the same program over HTTP, and the explorer
// finding a bug (step 0: no step of their own).
var buildAlong = []struct {
	title string
	run   func(io.Writer)
	step  int
}{
	{"Build 1: a kind of your own", BuildAKind, 1},
	{"Build 2: create it, get it, see its resourceVersion", BuildCreateAndGet, 2},
	{"Build 3: an informer and its lister", BuildAnInformer, 3},
	{"Build 4: a reconciler, reading the cache", BuildAReconciler, 4},
	{"Build 5: an owned child and the garbage collector", BuildAnOwnedChild, 5},
	{"Build 6: status, observedGeneration, conditions", BuildStatus, 6},
	{"Build 7: a finalizer for cleanup outside the API", BuildAFinalizer, 7},
	{"Build 8: a test under faults, in virtual time", BuildATest, 8},
	{"Build 9: the same program over HTTP, and on a cluster", BuildOverHTTP, 0},
	{"Find the bug: explore a controller, fix it, explore again", FindTheBug, 0},
}

// wrong lists the chapters of the last part, in reading order.
var wrong = []struct {
	title string
	run   func(io.Writer)
}{
	{"餐厅: the DeltaFIFO is history: informers queue in order", TheDeltaFIFOIsHistory},
	{"餐厅: status is not spec: no DeepEqual of the two", DeepEqualOfStatusAndSpec},
	{"餐厅: a shared informer shares; it does not partition", ASharedInformerDoesNotPartition},
	{"餐厅: an update is an event; a rolling update is a choice", AnUpdateIsNotARollingUpdate},
	{"餐厅: ListAndWatch is one list, one stream, one cache", ListAndWatchIsNotDoubleBuffered},
	{"餐厅: a lister takes label selectors", ListersTakeLabelSelectors},
	{"餐厅: custom resources live under /apis", CustomResourcesLiveUnderApis},
	{"餐厅: 410 Expired is about history, not ingredients", ExpiredIsAboutHistory},
	{"餐厅: a work queue has no buffer size", QueuesHaveNoBufferSize},
	{"餐厅: a watch timeout is not a report interval", AWatchTimeoutIsNotAReportInterval},
	{"餐厅: the story's Dish YAML is refused", TheStoryDishYAML},
	{"蛋糕店: the front desk does not poll", TheFrontDeskDoesNotPoll},
	{"蛋糕店: an error overrides RequeueAfter", AnErrorOverridesRequeueAfter},
	{"蛋糕店: the alert is a p90, not the average", TheAlertIsP90NotTheAverage},
	{"蛋糕店: Cluster API makes clusters; placing work is another job", ClusterAPIMakesClusters},
	{"蛋糕店: the story's YAML, applied", TheCakeStoryYAML},
	{"蛋糕店: the form's fields have Kubernetes names", TheFormsFieldsHaveKubernetesNames},
	{"both: the rail's limit on new tickets is a choice", TheRailLimitsNewTicketsByChoice},
	{"both: two waiters apply one order: who owns the field?", WhoOwnsTheField},
}

// sources are this package's files, so that the tour can print the code
// it runs: the text shown is the text compiled.
//
//go:embed *.go
var sources embed.FS

// Source is what the tour prints of a chapter besides its output.
type Source struct {
	File    string   // the file the chapter's function is in
	Prose   string   // its doc comment, as plain text
	Code    string   // its declaration, as written
	Helpers []Helper // the functions of this package it calls, in order of first use
}

// A Helper is a function of this package that a chapter calls.
type Helper struct {
	Name, File, Code string
}

// Source returns the chapter's prose and code, read from the package's
// own source files.
func (c Chapter) Source() (Source, error) {
	pkg, err := parsed()
	if err != nil {
		return Source{}, err
	}
	d, ok := pkg.funcs[c.Func()]
	if !ok {
		return Source{}, fmt.Errorf("chapters: no function %s in the embedded source", c.Func())
	}
	var p comment.Parser
	pr := comment.Printer{TextWidth: 72}
	s := Source{File: d.file, Prose: string(pr.Text(p.Parse(d.decl.Doc.Text()))), Code: pkg.code(d)}
	chapters := map[string]bool{}
	for _, c := range All() {
		chapters[c.Func()] = true
	}
	seen := map[string]bool{}
	ast.Inspect(d.decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); ok && !seen[id.Name] && !chapters[id.Name] {
			if h, ok := pkg.funcs[id.Name]; ok {
				seen[id.Name] = true
				s.Helpers = append(s.Helpers, Helper{Name: id.Name, File: h.file, Code: pkg.code(h)})
			}
		}
		return true
	})
	return s, nil
}

// pkg is this package's source, parsed.
type pkg struct {
	fset  *token.FileSet
	text  map[string][]byte   // file → content
	funcs map[string]funcDecl // top-level functions by name
}

type funcDecl struct {
	file string
	decl *ast.FuncDecl
}

// code returns the declaration of d as written, without its doc comment.
func (p *pkg) code(d funcDecl) string {
	f := p.fset.File(d.decl.Pos())
	return string(p.text[d.file][f.Offset(d.decl.Pos()):f.Offset(d.decl.End())])
}

var parsed = sync.OnceValues(func() (*pkg, error) {
	p := &pkg{fset: token.NewFileSet(), text: map[string][]byte{}, funcs: map[string]funcDecl{}}
	names, err := fs.Glob(sources, "*.go")
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(slices.Values(names)) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		text, err := sources.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, name, text, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		p.text[name] = text
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				p.funcs[fd.Name.Name] = funcDecl{file: name, decl: fd}
			}
		}
	}
	return p, nil
})
