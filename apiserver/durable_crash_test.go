package apiserver_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// The crash test runs a durable server in a child process (this test
// binary again, told so by an environment variable) with crashWriters
// writers at once (so that they share syncs), kills it with SIGKILL at a
// random moment, and opens its data directory: every write the child
// acknowledged must be there, and of each writer's one write that may
// have been in flight, all or nothing. Every few rounds it also flips a
// byte in a frame in the middle of the last log, which Open must refuse,
// naming the file and the frame, before the byte is put back.
//
//	go test -run TestKillNineLosesNothing ./apiserver/                      # 6 rounds
//	KITCHENSYNC_LONG=1 go test -v -run TestKillNineLosesNothing ./apiserver/   # 50 rounds, with the figures
const (
	crashChildDir   = "KITCHENSYNC_CRASH_CHILD_DIR"
	crashChildRound = "KITCHENSYNC_CRASH_CHILD_ROUND"
	crashWriters    = 4
)

// maxCrashOps bounds a child writer's writes; the parent kills it long
// before.
const maxCrashOps = 10_000

// crashOp is one write of a child's writer: create name (color "new"),
// patch its color, or delete it.
type crashOp struct{ verb, name, color string }

// crashOps is writer w's sequence of writes in one round: a function of
// the round and the writer alone, so that the parent knows what each
// acknowledgement stands for, and which write came next. Writers write
// names of their own.
func crashOps(round, w, n int) []crashOp {
	name := func(i int) string { return fmt.Sprintf("r%d-w%d-%d", round, w, i) }
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
	if dir := os.Getenv(lockChildDir); dir != "" {
		lockChild(dir)
		os.Exit(0)
	}
	if dir := os.Getenv(crashChildDir); dir != "" {
		round, _ := strconv.Atoi(os.Getenv(crashChildRound))
		crashChild(dir, round) // runs until killed
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// crashChild writes for ever with crashWriters writers, printing "ack W
// N" after writer W's N-th write (from 1) is acknowledged.
func crashChild(dir string, round int) {
	srv, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{Storage: storage.Options{SnapshotEvery: 50}})
	if err != nil {
		fmt.Println("error", err)
		return
	}
	var wg sync.WaitGroup
	for w := range crashWriters {
		wg.Go(func() { crashWriter(srv, round, w) })
	}
	wg.Wait()
}

func crashWriter(srv *apiserver.Server, round, w int) {
	widgets := client.New[*apiservertest.Widget](srv).Namespace("ns")
	ctx := context.Background()
	for n, op := range crashOps(round, w, maxCrashOps) {
		var err error
		switch op.verb {
		case "create":
			wd := apiservertest.NewWidget("ns", op.name)
			wd.Spec.Color = op.color
			_, err = widgets.Create(ctx, wd, meta.CreateOptions{})
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
		fmt.Println("ack", w, n+1) // os.Stdout is not buffered: printed means acknowledged
	}
}

func TestKillNineLosesNothing(t *testing.T) {
	rounds := 6
	if os.Getenv("KITCHENSYNC_LONG") != "" {
		rounds = 50
	}
	dir := t.TempDir()
	state := map[string]string{}
	rng := rand.New(rand.NewPCG(7, uint64(os.Getpid())))
	var acknowledged, inFlightKept, corrupted int
	for round := range rounds {
		acked := crashRound(t, dir, round, rng.IntN(200))
		got := colors(t, dir)
		next := map[string]string{}
		for w := range crashWriters {
			ops := crashOps(round, w, acked[w]+1)
			want := apply(only(state, w), ops[:acked[w]])
			if diff := cmp.Diff(want, only(got, w)); diff != "" {
				if diff2 := cmp.Diff(apply(only(state, w), ops), only(got, w)); diff2 != "" {
					t.Fatalf("round %d, writer %d, killed after %d acknowledged writes: state is neither the acknowledged one (-want +got):\n%s\nnor that plus the write in flight (%v):\n%s",
						round, w, acked[w], diff, ops[acked[w]], diff2)
				}
				inFlightKept++
			}
			acknowledged += acked[w]
			for k, v := range only(got, w) {
				next[k] = v
			}
		}
		state = next
		if round%3 == 2 {
			corrupted += corruptAndRefuse(t, dir, rng)
		}
	}
	t.Logf("%d rounds of kill -9 with %d writers: %d acknowledged writes, 0 lost, 0 phantom; %d unacknowledged writes in flight kept whole; %d flipped bits in the middle of the last log, all refused",
		rounds, crashWriters, acknowledged, inFlightKept, corrupted)
}

// only returns the entries of state written by writer w.
func only(state map[string]string, w int) map[string]string {
	out := map[string]string{}
	for k, v := range state {
		if strings.Contains(k, fmt.Sprintf("-w%d-", w)) {
			out[k] = v
		}
	}
	return out
}

// crashRound starts the child, kills it once its writers have
// acknowledged after writes in all (or at once for 0), and returns how
// many writes each writer had acknowledged.
func crashRound(t *testing.T, dir string, round, after int) [crashWriters]int {
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
	var acked [crashWriters]int
	total, killed := 0, false
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
	for lines := bufio.NewScanner(out); lines.Scan(); {
		var w, n int
		if _, err := fmt.Sscanf(lines.Text(), "ack %d %d", &w, &n); err != nil || w < 0 || w >= crashWriters {
			kill()
			t.Fatalf("round %d: the child said %q", round, lines.Text())
		}
		acked[w] = n
		if total++; total >= after {
			kill()
		}
	}
	cmd.Wait()
	return acked
}

// corruptAndRefuse flips a byte of a frame in the middle of the newest
// log, if it has one with a frame after it, checks that Open refuses the
// directory naming that frame, and puts the byte back. It returns 1 if
// it corrupted the log.
func corruptAndRefuse(t *testing.T, dir string, rng *rand.Rand) int {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "wal-*.log"))
	log := logs[len(logs)-1]
	whole, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	starts := frameStarts(whole)
	if len(starts) < 2 {
		return 0
	}
	i := rng.IntN(len(starts) - 1) // not the last
	frame := starts[i]
	damaged := bytes.Clone(whole)
	damaged[frame+rng.IntN(starts[i+1]-frame)] ^= 1 << rng.IntN(8)
	os.WriteFile(log, damaged, 0o600)
	_, err = apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	var se *storage.StorageError
	if !errors.As(err, &se) || se.Path != log || se.Offset != int64(frame) {
		t.Fatalf("Open of a log with a flipped bit in the frame at byte %d: %v, want a StorageError there", frame, err)
	}
	if got, _ := os.ReadFile(log); !bytes.Equal(got, damaged) {
		t.Fatalf("the refused log was changed")
	}
	os.WriteFile(log, whole, 0o600)
	return 1
}

// frameStarts returns where each frame of a log starts.
func frameStarts(b []byte) []int {
	var out []int
	for at := 0; at+8 <= len(b); {
		size := int(b[at])<<24 | int(b[at+1])<<16 | int(b[at+2])<<8 | int(b[at+3])
		if size == 0 {
			break // the preallocated space
		}
		out = append(out, at)
		at += 8 + size
	}
	return out
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
