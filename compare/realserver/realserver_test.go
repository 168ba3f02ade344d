package realserver

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// knownDifferences names the steps ("case/step index") where kitchensync
// is known to answer otherwise than the real server, with the reason. The
// test fails only on a difference not listed here.
var knownDifferences = map[string]string{
	"more-bad-input/6": "a JSON array as the body is 400 BadRequest (real: 500 InternalError, a server bug that kitchensync does not copy)",
	"more-bad-input/7": "a watch with resourceVersion=abc is 400 BadRequest, as a list is (real: 500 InternalError)",
	// 406 Not Acceptable: the same code, reason and (for deletecollection)
	// nothing deleted, but kitchensync's message names the forms it serves
	// (JSON and Tables; protobuf for built-in kinds), where the real
	// server's names YAML too, in wording that varies by verb; and to a
	// client asking a custom resource for protobuf only, the real server
	// answers the Status in protobuf, which kitchensync has no form of
	// for custom kinds.
	"delete-collection-protobuf/4":       notAcceptable,
	"delete-collection-not-acceptable/1": notAcceptable,
	"delete-collection-not-acceptable/3": notAcceptable,
	"delete-collection-not-acceptable/4": notAcceptable,
	"delete-collection-not-acceptable/5": notAcceptable,
	// The real server validates a custom resource's metadata on update
	// three times over and reports each cause thrice (one message, as
	// its aggregate drops repeats); kitchensync reports it once.
	// A custom resource asked for the list form of one object: the real
	// server fails to convert it (500 "content is not a list"); it
	// answers a built-in kind's 406, as kitchensync answers both.
	"metadata-only/8": "the list form of one custom resource is 406 NotAcceptable (real: 500 \"content is not a list\")",
	"invalid-label/4": "an update's invalid label is one cause (real: the same cause three times)",
}

const notAcceptable = "406's message names the forms kitchensync serves (no YAML); " +
	"a custom kind's 406 is JSON even to a protobuf-only client (real: protobuf)"

// TestRealServer plays every case on a real kube-apiserver and on
// kitchensync, and compares the answers step by step.
func TestRealServer(t *testing.T) {
	r := startReal(t)
	installCRD(t, r, "widgets.test.kitchensync.io", widgetCRD)
	installCRD(t, r, "gadgets.test.kitchensync.io", gadgetCRD)
	ks := httptest.NewServer(httpapi.NewHandler(newKitchensync(t)))
	t.Cleanup(ks.Close)

	var table strings.Builder
	agree, compared := 0, 0
	for _, c := range cases {
		// A subtest per case, so that -run 'TestRealServer/watch-' plays
		// only some.
		t.Run(c.Name, func(t *testing.T) {
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
		})
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

// newKitchensync is kitchensync's server for the suite: the test kinds,
// the built-in Lease and Event, and namespaces made real (the built-in Namespace kind, with "default",
// as a cluster has it). Its namespace controller is off: the real server
// runs without kube-controller-manager, whose controller it stands for.
// Its resourceVersions start at 100, so that, as on the real server,
// whose watch caches start when their resource is first served,
// resourceVersion 1 is older than any history it keeps.
func newKitchensync(t *testing.T) *apiserver.Server {
	t.Helper()
	srv := apiservertest.NewServerWithOptions(t, apiserver.Options{DisableNamespaceController: true, ResourceVersionStart: 100})
	if err := srv.Scheme().Register(builtin.NamespaceKind()); err != nil {
		t.Fatal(err)
	}
	if err := builtin.Register(srv.Scheme()); err != nil {
		t.Fatal(err)
	}
	namespaces := client.New[*builtin.Namespace](srv)
	if _, err := namespaces.Create(t.Context(), builtin.NewNamespace("default"), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return srv
}
