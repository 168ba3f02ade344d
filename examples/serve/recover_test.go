package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -recover needs -data; on a sound directory it says so and changes
// nothing; on a damaged one it keeps what comes before the damage and
// says where the rest went.
func TestRecoverFlag(t *testing.T) {
	var out bytes.Buffer
	if err := recoverData(options{recover: true}, &out); err == nil || !strings.Contains(err.Error(), "-recover needs -data") {
		t.Errorf("-recover without -data: %v", err)
	}
	dir := t.TempDir()
	if err := recoverData(options{recover: true, data: dir}, &out); err != nil || !strings.Contains(out.String(), "not damaged") {
		t.Errorf("-recover on a sound directory: %v, %q", err, out.String())
	}
	// A log whose first frame is garbage, with a good frame after it: damage.
	good := []byte{0, 0, 0, 2, 0x29, 0x7b, 0xd0, 0xaa, '{', '}'} // a frame whose payload is {}
	log := filepath.Join(dir, "wal-00000000000000000002.log")
	os.WriteFile(log, append([]byte{0, 0, 0, 9, 1, 2, 3, 4, 'x'}, good...), 0o600)
	out.Reset()
	if err := recoverData(options{recover: true, data: dir}, &out); err != nil || !strings.Contains(out.String(), "recovered "+dir) {
		t.Errorf("-recover on a damaged directory: %v, %q", err, out.String())
	}
}
