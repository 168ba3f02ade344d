package scale

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// serverVar, set in the environment, makes this test binary a server:
// TestMain serves apiserver/httpapi for the test kinds on a free port,
// prints its address and serves until killed. The benchmarks start it
// as a child process, so that what they measure (its RSS, its heap) is
// the server's alone, not their clients'. Its value is the mode: "1"
// (or any other) for the server, bareServer for bare net/http instead
// (see [bareHandler]); either with h2cSuffix, to speak HTTP/2 as well.
const serverVar = "KITCHENSYNC_SCALE_SERVER"

// bareServer is the value of serverVar for the bare net/http server.
const bareServer = "bare"

// h2cSuffix, at the end of serverVar's value, makes the server take
// HTTP/2 without TLS (h2c, with prior knowledge) as well as HTTP/1.1,
// with at most maxStreams streams per connection.
const h2cSuffix = "+h2c"

// maxStreams is kube-apiserver's limit of concurrent streams on one
// HTTP/2 connection (100 since its fix of the rapid-reset attack; Go's
// own default is 250). A client with more watches than that opens
// another connection.
const maxStreams = 100

func TestMain(m *testing.M) {
	if mode := os.Getenv(serverVar); mode != "" {
		serve(mode)
		return
	}
	os.Exit(m.Run())
}

// serve is the child: the server (or, for bareServer, bare net/http)
// and, at /scalez, its memory after a collection.
func serve(mode string) {
	mode, h2c := strings.CutSuffix(mode, h2cSuffix)
	var h http.Handler = httpapi.NewHandler(apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{}))
	if mode == bareServer {
		h = http.HandlerFunc(bareHandler)
	}
	mux := http.NewServeMux()
	mux.Handle("/", h)
	mux.HandleFunc("/scalez", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(readMemory())
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("listen:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr())
	srv := &http.Server{Handler: mux}
	if h2c {
		srv.Protocols = new(http.Protocols)
		srv.Protocols.SetHTTP1(true)
		srv.Protocols.SetUnencryptedHTTP2(true)
		srv.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: maxStreams}
	}
	_ = srv.Serve(ln)
}

// bareHandler is the floor of an idle watch over HTTP: it answers a
// list with an empty one, and any other request with the headers of a
// stream, flushed, then holds it without a byte more until the client
// goes away, as an idle watch does. What one such request costs is
// net/http's alone.
func bareHandler(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("watch") == "" {
		_, _ = io.WriteString(w, `{"metadata":{"resourceVersion":"1"}}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	if http.NewResponseController(w).Flush() != nil {
		return
	}
	<-r.Context().Done()
}

// memory is the server's memory after collections, in bytes: what it
// holds once idle goroutines' stacks have shrunk to what they use.
type memory struct {
	Heap, Stacks, RSS uint64
	Goroutines        int
}

func readMemory() memory {
	for range 4 { // each collection halves the stacks of goroutines using little of theirs
		runtime.GC()
	}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return memory{Heap: s[0].Value.Uint64(), Stacks: s[1].Value.Uint64(), RSS: rss(os.Getpid()), Goroutines: runtime.NumGoroutine()}
}

// rss is a process's resident set size, from /proc (0 where there is no
// /proc).
func rss(pid int) uint64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// child is a running server process.
type child struct {
	url string
	cmd *exec.Cmd
}

// startServer starts the child server (mode: see serverVar) and
// stops it when b ends.
func startServer(b *testing.B, mode string) *child {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serverVar+"="+mode)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return &child{url: "http://" + strings.TrimSpace(addr), cmd: cmd}
}

// memory asks the child for its memory after a collection.
func (c *child) memory(b *testing.B) memory {
	resp, err := http.Get(c.url + "/scalez")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var m memory
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		b.Fatal(err)
	}
	return m
}

// jsonDecode decodes one JSON value from r into v.
func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
