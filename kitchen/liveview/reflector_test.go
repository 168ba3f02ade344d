package liveview_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

type reflectorState struct {
	Resource, State string
	Lists, Watches  int
	Watching        bool
}

// reflectors reads the runner's reflectors as the page has them.
func reflectors(t *testing.T, v http.Handler) []reflectorState {
	t.Helper()
	var f struct {
		Pipe struct{ Reflectors []reflectorState }
	}
	get(t, v, "/state", &f)
	return f.Pipe.Reflectors
}

// each is the same state for the runner's three reflectors.
func each(s reflectorState) []reflectorState {
	var out []reflectorState
	for _, res := range []string{"cooks", "dishes", "orders"} {
		s.Resource = res
		out = append(out, s)
	}
	return out
}

// A watch cut within a second of its start, before any event, looks
// broken to a reflector: the page says it backs off (it is not watching,
// and not merely "cut"), and then that it listed again and watches.
func TestAReflectorCutTooSoonBacksOffAndListsAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v, _ := openGated(t)
		synctest.Wait()
		post(t, v, "/actions/cut-watches")
		synctest.Wait()
		if diff := cmp.Diff(each(reflectorState{State: "backoff", Lists: 1, Watches: 1}), reflectors(t, v)); diff != "" {
			t.Errorf("cut at once (-want +got):\n%s", diff)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if diff := cmp.Diff(each(reflectorState{State: "watching", Lists: 2, Watches: 2, Watching: true}), reflectors(t, v)); diff != "" {
			t.Errorf("after the backoff (-want +got):\n%s", diff)
		}
	})
}

// The scenes that cut the watches wait until they are past a very short
// watch: in the watch-cut scene each reflector watches again from its
// resourceVersion without a list, and in the relist scene each re-watch
// gets one of the 410s and lists once. (Cut at once, each would take the
// close for a broken connection and list, and a watch after that list
// would take a 410 meant for another, and list again.)
func TestScenesCutWatchesThatHaveSettled(t *testing.T) {
	for _, c := range []struct {
		scene string
		want  reflectorState
	}{
		{"watch-cut", reflectorState{State: "watching", Lists: 1, Watches: 2, Watching: true}},
		{"relist-410", reflectorState{State: "watching", Lists: 2, Watches: 2, Watching: true}},
	} {
		t.Run(c.scene, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, v, _ := openGated(t)
				post(t, v, "/actions/scene?name="+c.scene)
				waitScene(t, v, "held")
				post(t, v, "/actions/scene-next")
				waitScene(t, v, "done")
				post(t, v, "/actions/scene-leave")
				time.Sleep(10 * time.Second) // past every backoff
				synctest.Wait()
				if diff := cmp.Diff(each(c.want), reflectors(t, v)); diff != "" {
					t.Errorf("after the scene (-want +got):\n%s", diff)
				}
			})
		})
	}
}
