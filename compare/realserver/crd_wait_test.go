package realserver

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
)

// waitEstablished waits until the definition name is Established on the
// server at base.
func waitEstablished(t *testing.T, c *http.Client, base, name string) {
	t.Helper()
	waitFor(t, c, base, crdPath, name, func(_ string, obj map[string]any) bool {
		return hasCondition(obj, "Established", "True")
	})
}

// waitCondition waits until the definition name has a condition of type
// typ, whatever its status.
func waitCondition(t *testing.T, c *http.Client, base, name, typ string) {
	t.Helper()
	waitFor(t, c, base, crdPath, name, func(_ string, obj map[string]any) bool {
		return hasCondition(obj, typ, "")
	})
}

// waitGone waits until the definition name is deleted.
func waitGone(t *testing.T, c *http.Client, base, name string) {
	t.Helper()
	waitFor(t, c, base, crdPath, name, func(typ string, obj map[string]any) bool {
		return typ == "" && obj == nil || typ == "DELETED"
	})
}

// waitMarked waits until the object name in the collection at path has
// a deletionTimestamp.
func waitMarked(t *testing.T, c *http.Client, base, path, name string) {
	t.Helper()
	waitFor(t, c, base, path, name, func(_ string, obj map[string]any) bool {
		md, _ := obj["metadata"].(map[string]any)
		return md["deletionTimestamp"] != nil
	})
}

// waitFor waits until done is true of the object name in the collection
// at path on the server at base: first of the object as a list finds it
// (typ "", obj nil if there is none), then of each event of a watch from
// the list's resourceVersion, so that no change between the two is
// missed (a watch from no resourceVersion would start after it). No
// polling: the watch blocks until the server sends something.
func waitFor(t *testing.T, c *http.Client, base, path, name string, done func(typ string, obj map[string]any) bool) {
	t.Helper()
	sel := "fieldSelector=" + url.QueryEscape("metadata.name="+name)
	resp, err := c.Get(base + path + "?" + sel)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Metadata struct{ ResourceVersion string }
		Items    []map[string]any
	}
	err = json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s at %s: list: %s %v", name, base, resp.Status, err)
	}
	var obj map[string]any
	if len(list.Items) > 0 {
		obj = list.Items[0]
	}
	if done("", obj) {
		return
	}
	resp, err = c.Get(base + path + "?watch=true&timeoutSeconds=30&" + sel + "&resourceVersion=" + list.Metadata.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(bufio.NewReader(resp.Body))
	for {
		var ev struct {
			Type   string
			Object map[string]any
		}
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("%s at %s: the watch ended before %s got there: %v", base+path, base, name, err)
		}
		if done(ev.Type, ev.Object) {
			return
		}
	}
}

// hasCondition reports whether obj's status has a condition of type typ
// with status status ("": any).
func hasCondition(obj map[string]any, typ, status string) bool {
	st, _ := obj["status"].(map[string]any)
	conds, _ := st["conditions"].([]any)
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == typ && (status == "" || m["status"] == status) {
			return true
		}
	}
	return false
}
