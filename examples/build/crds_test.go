package build_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/build"
	cake "github.com/kitchensync/kitchensync/examples/build/step8"
	"github.com/kitchensync/kitchensync/examples/internal/manifests"
)

var update = flag.Bool("update", false, "rewrite crds.yaml from step 8's kinds")

// crds.yaml is what the generator makes of step 8's kinds, and a server
// accepts it.
func TestCRDsAreGenerated(t *testing.T) {
	var want bytes.Buffer
	want.WriteString("# Generated from examples/build/step8 by `go test ./examples/build -update`. DO NOT EDIT.\n")
	for i, kind := range []meta.KindInfo{cake.CakeKind, cake.BoxKind} {
		b, err := manifests.CRD(kind)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			want.WriteString("---\n")
		}
		_, b, _ = bytes.Cut(b, []byte("\n")) // the generator's own header
		want.Write(b)
	}
	if *update {
		if err := os.WriteFile("crds.yaml", want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(want.String(), string(build.CRDs())); diff != "" {
		t.Errorf("crds.yaml is not what step 8's kinds make (-want +got; go test ./examples/build -update rewrites it):\n%s", diff)
	}
	crds, err := apiextensions.Decode(build.CRDs())
	if err != nil || len(crds) != 2 {
		t.Fatalf("decoding crds.yaml: %d definitions, %v", len(crds), err)
	}
}
