package liveview

import (
	"context"
	"errors"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile"
)

// The stale chef's tour chapter.
const (
	tourStale    = tourCommand + "11"
	chapterStale = "The stale chef: read your own writes"
)

// staleRun is what the stale chef's setup leaves for its finish.
type staleRun struct {
	key    string // the order
	before int    // stale skips before the key hand-off
}

// sceneStale slows the runner's cooks watch (the gate holds the events
// of the order's cooks before the reflector, as a watch slow to deliver
// would) and holds the order's next ticket after the chef has sent its
// cook: stepped, the chef's controller sees that its cache lags the cook
// it just wrote, and skips the ticket instead of reconciling.
func sceneStale() *scene {
	return &scene{
		ID: "stale-chef", Title: "The stale chef reads his own writes",
		Question: "The chef has just sent a cook for an order, but the runner's cooks watch is slow: his memory has no cook " +
			"yet. A resync hands him the order's ticket again. What does the chef do?",
		Choices: []string{"Sends another cook: his memory shows none", "Puts the ticket back on the rail until his memory shows the cook he sent",
			"Cooks the order himself"},
		Answer: 1,
		Explain: "The chef's controller notes the resourceVersion of each write the chef makes for an order " +
			"(reconcile.Freshness.WroteAt) and, before a reconcile, compares it with how far the runner's caches have got " +
			"(their LastStoreSyncResourceVersion). The cooks cache was behind the cook just sent, so the worker skipped the " +
			"ticket and put it back on the rail (a stale skip: stale_sync_skips_total). Once the held events reached the cache, " +
			"the ticket was reconciled and found its cook. A chef who trusted his memory would have sent another: " +
			"kube-controller-manager's staleness mitigation (Kubernetes 1.36) keeps a ReplicaSet from doing that with pods.",
		Tour: tourStale, Chapter: chapterStale, Docs: []string{tourDoc + "reconcile Freshness", tourDoc + "kitchen Chef"},
		setup: func(ctx context.Context, s *sceneRun) (func(Hold) bool, error) {
			if s.v.r.Chef.Freshness == nil {
				return nil, errors.New("this chef does not read his own writes: only behind the runner's atomic queue can its caches " +
					"say how far they have got (serve -queue atomic, the default); behind this one he asks the API server instead")
			}
			key, err := s.placeHeld(ctx, "caesar-salad")
			if err != nil {
				return nil, err
			}
			s.v.gate.HoldOnly(either(takeOf(key), cookEventOf(key)))
			_, name := splitKey(key)
			s.say("the runner's cooks watch is slow: the gate holds the events of %s's cooks", name)
			if err := s.sendCook(ctx, key); err != nil {
				return nil, err
			}
			// The chef's own writes come back to him filtered (his
			// predicates drop status and metadata changes), and the cook's
			// events are held: a resync, or any change of the order, hands
			// him its ticket again.
			s.data = staleRun{key: key, before: s.v.m.staleSkips()}
			ns, name := splitKey(key)
			s.v.r.Rail.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}})
			s.say("a resync hands the chef %s's ticket again", name)
			return takeOf(key), nil
		},
		finish: func(ctx context.Context, s *sceneRun) error {
			run := s.data.(staleRun)
			if err := s.until(ctx, "the stale skip", func() bool { return s.v.m.staleSkips() > run.before }); err != nil {
				return err
			}
			s.say("the chef skipped the ticket: his memory lags the cook he sent")
			s.v.gate.Resume()
			return s.until(ctx, "the cook to reach the runner's cache", func() bool {
				cooks, err := s.v.r.Runner.Cooks.GetIndexer().ByIndex(kitchen.CookOrderIndex, run.key)
				return err == nil && len(cooks) > 0
			})
		},
	}
}

// cookEventOf matches the watch events of the cooks of the order key (the
// chef names them order-item-generation).
func cookEventOf(key string) func(Hold) bool {
	return func(h Hold) bool { return h.What == "event" && h.Name == "cooks" && strings.HasPrefix(h.Key, key+"-") }
}

// sendCook lets the order's held ticket through to the chef and waits
// until he has sent its cook (the API server has it) and finished.
func (s *sceneRun) sendCook(ctx context.Context, key string) error {
	h, ok := s.v.gate.holding(takeOf(key))
	if !ok {
		return errors.New("the order's ticket is not held")
	}
	s.v.gate.Step(h.ID)
	ns, name := splitKey(key)
	cooks := client.New[*kitchen.Cook](s.v.r.Server).Namespace(ns)
	var sent *kitchen.Cook
	err := s.until(ctx, "the chef to send a cook", func() bool {
		list, _, err := cooks.List(ctx, meta.ListOptions{})
		for _, c := range list {
			if err == nil && c.Spec.Order == name {
				sent = c
			}
		}
		return sent != nil && !s.v.m.reconciling(key)
	})
	if err != nil {
		return err
	}
	s.say("the chef sent cook %s (rv %s); the runner has not heard of it", sent.Name, sent.ResourceVersion)
	return nil
}
