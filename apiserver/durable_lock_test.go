package apiserver_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/storage"
)

// lockChildDir tells this test binary, run again as a child, to open
// the data directory it names and say how that went.
const lockChildDir = "KITCHENSYNC_LOCK_CHILD_DIR"

// lockChild opens dir and prints "opened", or "refused: " and the error.
func lockChild(dir string) {
	srv, err := apiserver.Open(apiservertest.NewScheme(), dir, apiserver.Options{})
	switch {
	case errors.Is(err, storage.ErrLocked):
		fmt.Println("refused:", err)
	case err != nil:
		fmt.Println("error:", err)
	default:
		srv.Close()
		fmt.Println("opened")
	}
}

// openInChild opens dir in another process and returns what it said.
func openInChild(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), lockChildDir+"="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the child: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// Two processes on one data directory would both acknowledge writes, and
// a restart would keep only one's: while one process has the directory
// open, another is refused, and told which process has it.
func TestSecondProcessIsRefused(t *testing.T) {
	dir := t.TempDir()
	srv := openDurable(t, dir, apiserver.Options{})
	writeSome(t, srv)
	got := openInChild(t, dir)
	if !strings.HasPrefix(got, "refused:") || !strings.Contains(got, "process "+strconv.Itoa(os.Getpid())+" holds it") {
		t.Errorf("another process opening the directory: %q, want it refused naming process %d", got, os.Getpid())
	}
	srv.Close()
	if got := openInChild(t, dir); got != "opened" {
		t.Errorf("another process opening the directory once it is closed: %q, want opened", got)
	}
}
