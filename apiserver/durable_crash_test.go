package apiserver_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The crash test runs a durable server in a child process (this test
// binary again, told so by an environment variable), kills it with
// SIGKILL at a random moment while it writes, and opens its data
// directory: every write the child acknowledged must be there, and of the
// one write that may have been in flight, all or nothing.
//
//	go test -run TestKillNineLosesNothing ./apiserver/                      # 5 rounds
//	KITCHENSYNC_LONG=1 go test -run TestKillNineLosesNothing ./apiserver/   # 100 rounds
const (
	crashChildDir   = "KITCHENSYNC_CRASH_CHILD_DIR"
	crashChildRound = "KITCHENSYNC_CRASH_CHILD_ROUND"
)

// maxCrashOps bounds a child's writes; the parent kills it long before.
const maxCrashOps = 10_000

// crashOp is one write of the child: create name (color "new"), patch
// its color, or delete it.
type crashOp struct{ verb, name, color string }

// crashOps is the child's sequence of writes in one round: a function of
// the round alone, so that the parent knows what each acknowledgement
// stands for, and which write came next.
func crashOps(round, n int) []crashOp {
	name := func(i int) string { return fmt.Sprintf("r%d-%d", round, i) }
	var ops []crashOp
	for i := 0; len(ops) < n; i++ {
		ops = append(ops, crashOp{"create", name(i), "new"})
		if i%3 == 2 {
			ops = append(ops, crashOp{"patch", name(i - 1), "v" + strconv.Itoa(i)})
		}
		if i%5 == 4 {
			ops = append(ops, crashOp{"delete", name(i - 3), ""})
		}
	}
	return ops[:n]
}

// apply plays ops on state (name → color).
func apply(state map[string]string, ops []crashOp) map[string]string {
	out := make(map[string]string, len(state))
	for k, v := range state {
		out[k] = v
	}
	for _, op := range ops {
		if op.verb == "delete" {
			delete(out, op.name)
		} else {
			out[op.name] = op.color
		}
	}
	return out
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildDir); dir != "" {
		round, _ := strconv.Atoi(os.Getenv(crashChildRound))
		crashChild(dir, round) // runs until killed
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// crashChild writes for ever, printing "ack N" after the N-th write (from
// 1) is acknowledged.
func crashChild(dir string, round int) {
	srv, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{SnapshotEvery: 7})
	if err != nil {
		fmt.Println("error", err)
		return
	}
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	ctx := context.Background()
	for n, op := range crashOps(round, maxCrashOps) {
		switch op.verb {
		case "create":
			w := apiservertest.NewWidget("ns", op.name)
			w.Spec.Color = op.color
			_, err = widgets.Create(ctx, w, meta.CreateOptions{})
		case "patch":
			_, err = widgets.Patch(ctx, op.name, meta.MergePatchType,
				[]byte(`{"spec":{"color":"`+op.color+`"}}`), meta.PatchOptions{})
		case "delete":
			err = widgets.Delete(ctx, op.name, meta.DeleteOptions{})
		}
		if err != nil {
			fmt.Println("error", err)
			return
		}
		fmt.Println("ack", n+1) // os.Stdout is not buffered: printed means acknowledged
	}
}

func TestKillNineLosesNothing(t *testing.T) {
	rounds := 5
	if os.Getenv("KITCHENSYNC_LONG") != "" {
		rounds = 100
	}
	dir := t.TempDir()
	state := map[string]string{}
	rng := rand.New(rand.NewPCG(7, uint64(os.Getpid())))
	for round := range rounds {
		acked := crashRound(t, dir, round, rng.IntN(40))
		ops := crashOps(round, acked+1)
		got := colors(t, dir)
		want := apply(state, ops[:acked])
		if diff := cmp.Diff(want, got); diff != "" {
			inFlight := apply(state, ops)
			if diff2 := cmp.Diff(inFlight, got); diff2 != "" {
				t.Fatalf("round %d, killed after %d acknowledged writes: state is neither the acknowledged one (-want +got):\n%s\nnor that plus the write in flight (%v):\n%s",
					round, acked, diff, ops[acked], diff2)
			}
		}
		state = got
	}
}

// crashRound starts the child, kills it once it has acknowledged after
// writes (or at once for 0), and returns how many writes it acknowledged
// in all.
func crashRound(t *testing.T, dir string, round, after int) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildDir+"="+dir, crashChildRound+"="+strconv.Itoa(round))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	acked, killed := 0, false
	kill := func() {
		if !killed {
			cmd.Process.Kill() // SIGKILL: no deferred function, no flush
			killed = true
		}
	}
	defer kill()
	if after == 0 {
		kill()
	}
	for lines.Scan() {
		line := lines.Text()
		n, ok := strings.CutPrefix(line, "ack ")
		if !ok {
			kill()
			t.Fatalf("round %d: the child said %q", round, line)
		}
		acked, _ = strconv.Atoi(n)
		if acked >= after {
			kill()
		}
	}
	cmd.Wait()
	return acked
}

// colors opens dir and returns its widgets' colors by name.
func colors(t *testing.T, dir string) map[string]string {
	t.Helper()
	srv, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	if err != nil {
		t.Fatalf("Open after the crash: %v", err)
	}
	defer srv.Close()
	list, _, err := client.New[*apiservertest.Widget](srv).List(context.Background(), meta.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, w := range list {
		out[w.Name] = w.Spec.Color
	}
	return out
}
