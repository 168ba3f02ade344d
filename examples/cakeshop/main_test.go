package main

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"
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
