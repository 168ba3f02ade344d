package realserver

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
)

// knownDifferences names the steps ("case/step index") where kitchensync
// is known to answer otherwise than the real server, with the reason. The
// test fails only on a difference not listed here.
var knownDifferences = map[string]string{
	"no-such-namespace/0": `namespaces are not objects: 201 (real: 404 namespaces "nosuchns" not found)`,
}

// TestRealServer plays every case on a real kube-apiserver and on
// kitchensync, and compares the answers step by step.
func TestRealServer(t *testing.T) {
	r := startReal(t)
	installCRD(t, r, "widgets.test.kitchensync.io", widgetCRD)
	installCRD(t, r, "gadgets.test.kitchensync.io", gadgetCRD)
	ks := httptest.NewServer(httpapi.NewHandler(apiservertest.NewServer(t)))
	t.Cleanup(ks.Close)

	var table strings.Builder
	agree, compared := 0, 0
	for _, c := range cases {
		var mr, mk memory
		for i, st := range c.Steps {
			key := fmt.Sprintf("%s/%d", c.Name, i)
			want, err := send(r.client, r.url, st, &mr)
			if err != nil {
				t.Fatalf("%s: real server: %v", key, err)
			}
			got, err := send(ks.Client(), ks.URL, st, &mk)
			if err != nil {
				t.Fatalf("%s: kitchensync: %v", key, err)
			}
			compared++
			verdict, ok := judge(t, key, st, cmp.Diff(want, got))
			if ok {
				agree++
			}
			fmt.Fprintf(&table, "%-24s %-6s %-50.50s %s\n", key, st.Method, st.Path, verdict)
		}
	}
	t.Logf("requests against a real kube-apiserver and kitchensync:\n%sagree %d / compared %d",
		table.String(), agree, compared)
}

// judge names the verdict on one step given the diff of its answers, and
// reports whether they agree; a difference not in knownDifferences fails
// the test.
func judge(t *testing.T, key string, st step, diff string) (string, bool) {
	t.Helper()
	reason, known := knownDifferences[key]
	switch {
	case diff == "" && known:
		return "agree (listed as known: remove it)", true
	case diff == "":
		return "agree", true
	case known:
		t.Logf("%s %s %s: known difference (-real +kitchensync):\n%s", key, st.Method, st.Path, diff)
		return "differ (known: " + reason + ")", false
	}
	t.Errorf("%s %s %s: kitchensync differs from the real server (-real +kitchensync):\n%s",
		key, st.Method, st.Path, diff)
	return "DIFFER (new)", false
}
