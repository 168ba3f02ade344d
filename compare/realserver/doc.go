// Package realserver is the differential suite against a real
// kube-apiserver: the same raw HTTP requests go to a real kube-apiserver
// v1.37.2 (with etcd) and to kitchensync's apiserver/httpapi, and the test
// compares what each answers — status code, Status reason, message and
// details, and the object's fields — after normalising what must differ
// (uids, timestamps, resourceVersions, continue tokens, managedFields).
//
// It has no API; its content is its tests. The real server is built by
// shared/tools/real-apiserver/build.sh (20–35 minutes, once, cached in
// ~/.cache/real-apiserver) and started and stopped by that directory's
// start.sh and stop.sh. Because the build is long, CI never runs this
// suite: it runs only when KITCHENSYNC_REAL_APISERVER=1 is set, and skips,
// saying how to build them, when the binaries are missing:
//
//	cd compare && KITCHENSYNC_REAL_APISERVER=1 go test -v -run TestRealServer ./realserver/
//
// The tools directory is found as shared/tools/real-apiserver in the
// repository's parent directory (or any ancestor), or named by
// KITCHENSYNC_REAL_APISERVER_TOOLS.
//
// Each case is a subtest: -run 'TestRealServer/watch-' plays only the
// cases whose names begin so (the table and the count then cover those).
//
// Both servers get the test kinds of apiserver/apiservertest: on the real
// server as CustomResourceDefinitions, Widget with a status subresource and
// the selectable field spec.color, Gadget cluster-scoped. Each case plays a short request
// sequence on objects of its own; the test logs a table of agree/differ
// per request and the count "agree N / compared M". Differences already
// known are listed, with their reason, in knownDifferences: the test fails
// only on a new difference, and logs a known one that has come to agree.
//
// TestRealServerCRDs installs the same CustomResourceDefinitions on both
// servers, through the API (kitchensync serving them with
// apiserver/apiextensions), and compares invalid definitions refused,
// the definition as created and established (conditions), discovery,
// objects created valid and invalid against the schema, defaults and
// pruning with their warnings, CEL rules, the status and scale
// subresources, a selectable field, names that clash, two versions with
// conversion None, and the definition's deletion with its objects.
//
// The graduation test (TestGraduationConvergence, and its benchmark
// BenchmarkGraduationConvergence) runs the library's own informer and
// controller over its HTTP client against both servers: the same writes,
// the same controller, the same convergence checks.
//
// In the kitchen: the same tickets handed to our kitchen and to the famous
// one across the street, compared plate by plate.
package realserver
