package apiserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// WriteListJSON writes what ListJSON returns, also for a list written in
// many pieces, and AppendListItemsJSON gives its items, each between the
// given bytes, with the list's resourceVersion; on a bad request neither
// writes anything.
func TestWriteListJSONAndAppendListItemsJSON(t *testing.T) {
	ctx := context.Background()
	srv := apiservertest.NewServer(t)
	c := client.New[*apiservertest.Widget](srv).Namespace("default")
	for i := range 500 { // about 100 KiB: two pieces
		w := apiservertest.NewWidget("default", fmt.Sprintf("w%03d", i))
		w.Labels = map[string]string{"app": []string{"x", "y"}[i%2]}
		w.Spec.Color = strings.Repeat("r", 100)
		if _, err := c.Create(ctx, w, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	rc := srv.Resource(apiservertest.WidgetsResource).Namespace("default")
	for _, opts := range []meta.ListOptions{{}, {LabelSelector: "app=y"}, {Limit: 7}} {
		want, err := rc.ListJSON(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := rc.WriteListJSON(ctx, opts, func() io.Writer { return &got }); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want) {
			t.Errorf("%+v: WriteListJSON differs from ListJSON:\n got %.300s\nwant %.300s", opts, got.String(), want)
		}
		if opts.Limit > 0 {
			continue
		}
		var list struct {
			Metadata meta.ListMeta     `json:"metadata"`
			Items    []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(want, &list); err != nil {
			t.Fatal(err)
		}
		var items []string
		for _, item := range list.Items {
			items = append(items, "<"+string(item)+">")
		}
		lines, rv, err := rc.AppendListItemsJSON(ctx, []byte("x"), opts, "<", ">")
		if err != nil || string(lines) != "x"+strings.Join(items, "") || rv != list.Metadata.ResourceVersion {
			t.Errorf("%+v: AppendListItemsJSON = %.300s, %q, %v; want the %d items at %q", opts, lines, rv, err, len(items), list.Metadata.ResourceVersion)
		}
	}
	bad := meta.ListOptions{LabelSelector: "a b"}
	if err := rc.WriteListJSON(ctx, bad, func() io.Writer { t.Error("started on a bad request"); return io.Discard }); err == nil {
		t.Error("WriteListJSON with a bad selector: no error")
	}
	if _, _, err := rc.AppendListItemsJSON(ctx, nil, bad, "", ""); err == nil {
		t.Error("AppendListItemsJSON with a bad selector: no error")
	}
}
