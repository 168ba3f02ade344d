package main

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestRunAllScenes plays the whole program in a synctest bubble (virtual
// shop time) and checks that every scene ran and summarised.
func TestRunAllScenes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out, logs bytes.Buffer
		if err := run(t.Context(), &out, &logs, options{seed: 1, quiet: true}); err != nil {
			t.Fatalf("run: %v\n%s", err, out.String())
		}
		for _, name := range strings.Split(names(), ", ") {
			if !strings.Contains(out.String(), "== summary: "+name+"\n") {
				t.Errorf("no summary of scene %s in:\n%s", name, out.String())
			}
		}
		if strings.Contains(out.String(), "[customer]") {
			t.Error("-q printed the narration")
		}
	})
}

func TestRunOneSceneNarratedAndLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var out, logs bytes.Buffer
		if err := run(t.Context(), &out, &logs, options{scene: "lifecycle", seed: 1, verbose: true}); err != nil {
			t.Fatalf("run: %v", err)
		}
		for _, want := range []string{"=== 2.", "[customer]    orders haidian/alice", "[front-desk]", "[baker]", "== summary: lifecycle"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		}
		if !strings.Contains(logs.String(), "level=DEBUG") {
			t.Errorf("-v printed no debug logs:\n%s", logs.String())
		}
	})
}

func TestRunUnknownScene(t *testing.T) {
	var out bytes.Buffer
	err := run(t.Context(), &out, &out, options{scene: "bakery-fire"})
	if err == nil || !strings.Contains(err.Error(), `no scene "bakery-fire"`) || !strings.Contains(err.Error(), "lifecycle") {
		t.Errorf("run(-scene bakery-fire) = %v, want an error listing the scenes", err)
	}
}

// Each bad command line is refused before anything runs, with exit
// status 2 and a message that says what would do.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-minute", "0"}, "0s is out of range: give one from 1µs to 1m0s"},
		{[]string{"-minute", "-1s"}, "-1s is out of range"},
		{[]string{"-minute", "fast"}, "not a duration"},
		{[]string{"-scene", "wedding"}, "-scene wedding: no such scene; the scenes are order-form,"},
		{[]string{"-seed", "x"}, `invalid value "x" for flag -seed`},
		{[]string{"-q", "now"}, `unexpected argument "now"`},
	} {
		var errOut bytes.Buffer
		if _, code := parse(tc.args, &errOut); code != 2 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("parse %q: exit %d, said %q; want 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
	if o, code := parse([]string{"-minute", "2ms", "-scene", "rush"}, &bytes.Buffer{}); code != -1 || o.minute != 2*time.Millisecond {
		t.Errorf("good flags: %+v, %d", o, code)
	}
}
