package record_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/apiserver/rest/resttest"
	"github.com/kitchensync/kitchensync/reconcile/record"
)

func newServer(t *testing.T) *apiserver.Server {
	s := meta.NewScheme()
	if err := builtin.Register(s); err != nil {
		t.Fatal(err)
	}
	return apiserver.NewServer(s, apiserver.Options{})
}

// The same note three times, a minute apart, is one Event with count 3,
// in process and over HTTP; a different note is an Event of its own.
func TestRecorderWritesAndAggregates(t *testing.T) {
	clients := map[string]func(*testing.T, *apiserver.Server) record.EventClientFor{
		"in process": func(_ *testing.T, srv *apiserver.Server) record.EventClientFor {
			return func(ns string) record.EventClient { return srv.Resource(builtin.EventsResource).Namespace(ns) }
		},
		"over HTTP": func(t *testing.T, srv *apiserver.Server) record.EventClientFor {
			ts := resttest.NewServer(t, httpapi.NewHandler(srv))
			c, err := rest.New(&ts.Config, srv.Scheme())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(c.CloseIdleConnections)
			return func(ns string) record.EventClient { return c.Resource(builtin.EventsResource).Namespace(ns) }
		},
	}
	for name, client := range clients {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := newServer(t)
				rec, err := record.NewRecorder(client(t, srv), record.Options{Component: "chef", Instance: "chef-1"})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(t.Context())
				var wg sync.WaitGroup
				wg.Go(func() { rec.Run(ctx) })
				order := &builtin.Lease{TypeMeta: meta.TypeMeta{APIVersion: "menu.example.com/v1", Kind: "Order"},
					ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: "table-7", UID: "u1"}}
				for range 3 {
					rec.Event(order, builtin.EventTypeNormal, "Cooking", "2 cooks at work")
					synctest.Wait()
					time.Sleep(time.Minute)
				}
				rec.Eventf(order, builtin.EventTypeWarning, "OutOfStock", "%s ran out", "truffle")
				synctest.Wait()
				cancel()
				wg.Wait()
				list, err := srv.Resource(builtin.EventsResource).Namespace("dinner").List(t.Context(), meta.ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, o := range list.Items {
					e := o.(*builtin.Event)
					got = append(got, fmt.Sprintf("%s %s %q ×%d %s..%s by %s/%s about %s %s", e.Type, e.Reason, e.Message, e.Count,
						e.FirstTimestamp.Format("15:04"), e.LastTimestamp.Format("15:04"), e.Source.Component, e.ReportingInstance,
						e.InvolvedObject.Kind, e.InvolvedObject.Name))
				}
				want := []string{
					`Normal Cooking "2 cooks at work" ×3 00:00..00:02 by chef/chef-1 about Order table-7`,
					`Warning OutOfStock "truffle ran out" ×1 00:03..00:03 by chef/chef-1 about Order table-7`,
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("events (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// An event whose earlier copy is gone from the server is created again.
func TestRecorderRecreatesAnEventGoneFromTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t)
		events := srv.Resource(builtin.EventsResource).Namespace("dinner")
		rec, err := record.NewRecorder(func(string) record.EventClient { return events }, record.Options{Component: "chef"})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { rec.Run(ctx) })
		obj := &builtin.Lease{ObjectMeta: meta.ObjectMeta{Namespace: "dinner", Name: "table-7"}}
		rec.Event(obj, builtin.EventTypeNormal, "Cooking", "m")
		synctest.Wait()
		list, _ := events.List(ctx, meta.ListOptions{})
		if err := events.Delete(ctx, list.Items[0].GetObjectMeta().Name, meta.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		rec.Event(obj, builtin.EventTypeNormal, "Cooking", "m")
		synctest.Wait()
		cancel()
		wg.Wait()
		list, _ = events.List(t.Context(), meta.ListOptions{})
		if len(list.Items) != 1 || list.Items[0].(*builtin.Event).Count != 2 {
			t.Errorf("events = %d, want one with count 2", len(list.Items))
		}
	})
}

func TestNewRecorderNeedsAComponent(t *testing.T) {
	if _, err := record.NewRecorder(func(string) record.EventClient { return nil }, record.Options{}); err == nil {
		t.Error("NewRecorder without a component: no error")
	}
}
