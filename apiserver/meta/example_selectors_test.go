package meta_test

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A label selector is a comma-separated list of requirements that must all
// hold. String gives the canonical form, sorted by key.
func ExampleParseLabelSelector() {
	sel, err := meta.ParseLabelSelector("table in (7, 1), section!=terrace, !allergy")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sel)
	for _, labels := range []map[string]string{
		{"section": "vip", "table": "1"},
		{"section": "terrace", "table": "7"},
		{"section": "vip", "table": "1", "allergy": "nuts"},
		{"table": "7"}, // != matches a missing key
	} {
		fmt.Println(labels, sel.Matches(labels))
	}

	_, err = meta.ParseLabelSelector("table in 7")
	fmt.Println(meta.IsBadRequest(err), err)
	// Output:
	// !allergy,section!=terrace,table in (1,7)
	// map[section:vip table:1] true
	// map[section:terrace table:7] false
	// map[allergy:nuts section:vip table:1] false
	// map[table:7] true
	// true unable to parse requirement: found '7' expected: '('
}

// A field selector compares fields with =, == or !=. Which fields exist
// depends on the kind: metadata.name, metadata.namespace and whatever the
// kind registers.
func ExampleParseFieldSelector() {
	sel, _ := meta.ParseFieldSelector("spec.section=vip,metadata.name!=t2")
	fmt.Println(sel, sel.Requirements())
	fmt.Println(sel.Matches(map[string]string{"metadata.name": "t1", "spec.section": "vip"}))
	fmt.Println(sel.Matches(map[string]string{"metadata.name": "t2", "spec.section": "vip"}))
	// Output:
	// metadata.name!=t2,spec.section=vip [metadata.name spec.section]
	// true
	// false
}
