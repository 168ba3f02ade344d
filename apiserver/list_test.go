package apiserver_test

import (
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

func names(list *meta.List) []string {
	var out []string
	for _, obj := range list.Items {
		out = append(out, obj.GetObjectMeta().Namespace+"/"+obj.GetObjectMeta().Name)
	}
	return out
}

func TestListSelectorsAndScope(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		f.create(t, "c", "red", map[string]string{"tier": "gold", "zone": "a"})
		f.create(t, "a", "blue", map[string]string{"tier": "silver"})
		f.create(t, "b", "red", nil)
		o := apiservertest.NewWidget("other", "a")
		o.Spec.Color = "red"
		if _, err := f.res.Create(f.ctx, o, meta.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name   string
			ns     string
			labels string
			fields string
			want   []string
		}{
			{"all, sorted by namespace then name", "", "", "", []string{"ns/a", "ns/b", "ns/c", "other/a"}},
			{"one namespace", "other", "", "", []string{"other/a"}},
			{"equality", "", "tier=gold", "", []string{"ns/c"}},
			{"inequality includes missing", "", "tier!=gold", "", []string{"ns/a", "ns/b", "other/a"}},
			{"in", "", "tier in (gold,silver)", "", []string{"ns/a", "ns/c"}},
			{"notin", "", "tier notin (gold)", "", []string{"ns/a", "ns/b", "other/a"}},
			{"exists", "", "zone", "", []string{"ns/c"}},
			{"does not exist", "", "!tier", "", []string{"ns/b", "other/a"}},
			{"kind field", "", "", "spec.color=red", []string{"ns/b", "ns/c", "other/a"}},
			{"name and namespace fields", "", "", "metadata.name=a,metadata.namespace!=ns", []string{"other/a"}},
			{"both", "ns", "tier", "spec.color!=blue", []string{"ns/c"}},
		}
		for _, tt := range tests {
			list, err := f.res.Namespace(tt.ns).List(f.ctx, meta.ListOptions{LabelSelector: tt.labels, FieldSelector: tt.fields})
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
				continue
			}
			if diff := cmp.Diff(tt.want, names(list)); diff != "" {
				t.Errorf("%s: (-want +got)\n%s", tt.name, diff)
			}
			if list.Kind != "WidgetList" || list.APIVersion != "test.kitchensync.io/v1" || list.ResourceVersion != "5" {
				t.Errorf("%s: list meta %+v %+v", tt.name, list.TypeMeta, list.ListMeta)
			}
		}
	})
}

// Pages are read at the first page's resourceVersion, as etcd reads them:
// writes between pages do not show up in later pages.
func TestListPagingIsConsistent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		for _, n := range []string{"a", "b", "c", "d", "e"} {
			f.create(t, n, "red", nil)
		}
		var pages [][]string
		opts := meta.ListOptions{Limit: 2}
		for i := 0; ; i++ {
			list, err := f.res.List(f.ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			if list.ResourceVersion != "6" {
				t.Errorf("page %d at rv %s, want 6", i, list.ResourceVersion)
			}
			pages = append(pages, names(list))
			if i == 0 {
				if list.RemainingItemCount == nil || *list.RemainingItemCount != 3 {
					t.Errorf("remainingItemCount = %v, want 3", list.RemainingItemCount)
				}
				// Changes after the first page: invisible to later pages.
				if err := f.widgets.Delete(f.ctx, "c", meta.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
				f.create(t, "cc", "red", nil)
			}
			if list.Continue == "" {
				break
			}
			opts.Continue = list.Continue
		}
		want := [][]string{{"ns/a", "ns/b"}, {"ns/c", "ns/d"}, {"ns/e"}}
		if diff := cmp.Diff(want, pages); diff != "" {
			t.Errorf("pages (-want +got)\n%s", diff)
		}
	})
}

func TestListContinueAfterCompactionIsExpired(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{CompactionDropsHistory: true})
		for _, n := range []string{"a", "b", "c"} {
			f.create(t, n, "red", nil)
		}
		first, err := f.res.List(f.ctx, meta.ListOptions{Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		f.create(t, "d", "red", nil)
		f.srv.CompactHistory()
		_, err = f.res.List(f.ctx, meta.ListOptions{Limit: 1, Continue: first.Continue})
		if !meta.IsExpired(err) {
			t.Errorf("continue after compaction: %v, want 410 Expired", err)
		}
	})
}

func TestListResourceVersionSemantics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		a := f.create(t, "a", "red", nil)
		f.create(t, "b", "red", nil)
		a.Spec.Color = "blue"
		f.update(t, a)
		tests := []struct {
			name    string
			opts    meta.ListOptions
			want    []string
			wantRV  string
			wantErr string
		}{
			{"latest", meta.ListOptions{ResourceVersion: "0"}, []string{"ns/a", "ns/b"}, "4", ""},
			{"not older than", meta.ListOptions{ResourceVersion: "2"}, []string{"ns/a", "ns/b"}, "4", ""},
			{"exact past state", meta.ListOptions{ResourceVersion: "2", ResourceVersionMatch: meta.ResourceVersionMatchExact},
				[]string{"ns/a"}, "2", ""},
			{"exact, selector on the past state", meta.ListOptions{ResourceVersion: "3",
				ResourceVersionMatch: meta.ResourceVersionMatchExact, FieldSelector: "spec.color=red"},
				[]string{"ns/a", "ns/b"}, "3", ""},
			{"future", meta.ListOptions{ResourceVersion: "9"}, nil, "",
				"Timeout: Too large resource version: 9, current: 4"},
			{"not a number", meta.ListOptions{ResourceVersion: "x"}, nil, "",
				`invalid resource version: resourceVersion: Invalid value: "x": strconv.ParseUint: parsing "x": invalid syntax`},
			{"match without rv", meta.ListOptions{ResourceVersionMatch: meta.ResourceVersionMatchExact}, nil, "",
				`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`},
			{"sendInitialEvents on list", meta.ListOptions{SendInitialEvents: ptr(true)}, nil, "",
				`ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`},
		}
		for _, tt := range tests {
			list, err := f.res.List(f.ctx, tt.opts)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("%s: err = %v, want %s", tt.name, err, tt.wantErr)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
				continue
			}
			if diff := cmp.Diff(tt.want, names(list)); diff != "" || list.ResourceVersion != tt.wantRV {
				t.Errorf("%s: rv %s (want %s), items (-want +got)\n%s", tt.name, list.ResourceVersion, tt.wantRV, diff)
			}
		}
	})
}

// Two paged lists taken at different resourceVersions, their pages
// interleaved: each page shows its own list's state, whichever list the
// server remembers the entries of.
func TestInterleavedPagedListsKeepTheirState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFixture(t, apiserver.Options{})
		for _, n := range []string{"a", "b", "c", "d"} {
			f.create(t, n, "red", nil)
		}
		first, err := f.res.List(f.ctx, meta.ListOptions{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := f.widgets.Delete(f.ctx, "c", meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		f.create(t, "bb", "red", nil)
		second, err := f.res.List(f.ctx, meta.ListOptions{Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		rest := func(cont string) []string {
			page, err := f.res.List(f.ctx, meta.ListOptions{Limit: 10, Continue: cont})
			if err != nil {
				t.Fatal(err)
			}
			return names(page)
		}
		got := [][]string{names(first), rest(first.Continue), names(second), rest(second.Continue), rest(first.Continue)}
		want := [][]string{{"ns/a", "ns/b"}, {"ns/c", "ns/d"}, {"ns/a", "ns/b"}, {"ns/bb", "ns/d"}, {"ns/c", "ns/d"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("pages (-want +got)\n%s", diff)
		}
	})
}
