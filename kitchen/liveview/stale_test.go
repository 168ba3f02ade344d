package liveview_test

import (
	"regexp"
	"strconv"
	"testing"
	"testing/synctest"
)

// In the stale chef's scene the chef's controller skips the order's
// ticket while the runner's cooks cache lags the cook he sent: the page
// counts the skip at the reconciler and tells it in the order's history,
// naming the cook and both resourceVersions.
func TestTheStaleChefSkipsATicketAndThePageSaysWhy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v, _ := openGated(t)
		post(t, v, "/actions/scene?name=stale-chef")
		waitScene(t, v, "held")
		post(t, v, "/actions/scene-next")
		waitScene(t, v, "done")
		var f struct {
			Pipe struct{ Counts struct{ StaleSkips int } }
		}
		get(t, v, "/state", &f)
		if f.Pipe.Counts.StaleSkips < 1 {
			t.Errorf("%d stale skips counted, want at least 1", f.Pipe.Counts.StaleSkips)
		}
		var d struct {
			History []struct{ Stage, Text, Class, RV string }
		}
		get(t, v, "/orders/order-001", &d)
		said := regexp.MustCompile(`^stale skip: the chef wrote cook order-001-0-g1 at rv (\d+), the runner's cooks cache is at rv (\d+): the ticket goes back on the rail$`)
		n := 0
		for _, e := range d.History {
			if e.Class != "stale" {
				continue
			}
			n++
			m := said.FindStringSubmatch(e.Text)
			if e.Stage != "reconciler" || m == nil || e.RV != m[1] {
				t.Errorf("the skip reads %s %q (rv %s), want at the reconciler: %s", e.Stage, e.Text, e.RV, said)
				continue
			}
			wrote, _ := strconv.Atoi(m[1])
			at, _ := strconv.Atoi(m[2])
			if at >= wrote {
				t.Errorf("the skip says the cache is at rv %d, not behind the cook at rv %d", at, wrote)
			}
		}
		if n == 0 {
			t.Errorf("no stale skip in the order's history: %+v", d.History)
		}
	})
}
