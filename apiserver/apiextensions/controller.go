package apiextensions

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Controller serves the kinds that CustomResourceDefinitions define on
// one server, as kube-apiserver's apiextensions server and its
// controllers do: it checks each definition's names (NamesAccepted),
// registers its kind so that the server serves it (Established), and
// when the definition is deleted, deletes its objects, stops serving the
// kind and lets the definition go (Terminating). Make one with
// [Install].
//
// It acts inside the call that wrote the definition, as the server's
// garbage collector does (see [apiserver.Server.OnCommit]): the create of
// a definition answers the definition as created, and the two status
// writes that follow (names accepted, then established) are done before
// the call returns, each with its own event, as the real server sends
// them.
//
// A Controller is safe for concurrent use: work from several writers is
// done one definition at a time, by whichever writer came first.
type Controller struct {
	srv  *apiserver.Server
	crds *client.Client[*CustomResourceDefinition]

	mu      sync.Mutex // guards the fields below
	queue   []string   // definitions to look at, by name
	running bool       // a goroutine is working through queue
	state   map[string]*crdState
}

// crdState is what the controller serves for one definition.
type crdState struct {
	uid         string
	gr          meta.GroupResource
	terminating *atomic.Bool
}

// Install makes srv serve CustomResourceDefinitions: it registers the
// kind (unless srv's scheme has it) and the controller, and serves the
// definitions srv already stores (a server restored from disk). Install
// it once per server.
func Install(srv *apiserver.Server) (*Controller, error) {
	if _, ok := srv.Scheme().KindForResource(Resource); !ok {
		if err := srv.Scheme().Register(Kind()); err != nil {
			return nil, err
		}
	}
	c := &Controller{srv: srv, crds: client.New[*CustomResourceDefinition](srv), state: map[string]*crdState{}}
	srv.OnCommit(Resource.GroupResource(), func(_ meta.EventType, obj meta.Object) { c.enqueue(obj.GetObjectMeta().Name) })
	if srv.ResourceVersion() == strconv.FormatInt(max(srv.Options().ResourceVersionStart, 1), 10) {
		return c, nil // a server that has written nothing holds no definitions: no request to count
	}
	list, _, err := c.crds.List(context.Background(), meta.ListOptions{})
	if err != nil {
		return nil, err
	}
	for _, crd := range list {
		c.enqueue(crd.Name)
	}
	return c, nil
}

// enqueue asks for the definition name to be looked at, and works
// through the queue unless some goroutine is at it already (this one,
// further up its stack, when a write of the controller's own comes
// back through the hook).
func (c *Controller) enqueue(name string) {
	c.mu.Lock()
	c.queue = append(c.queue, name)
	if c.running {
		c.mu.Unlock()
		return
	}
	c.running = true
	for len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		c.mu.Unlock()
		c.sync(next)
		c.mu.Lock()
	}
	c.running = false
	c.mu.Unlock()
}

// sync brings what is served for the definition name in line with it.
func (c *Controller) sync(name string) {
	ctx := context.Background()
	crd, err := c.crds.Get(ctx, name, meta.GetOptions{})
	switch {
	case meta.IsNotFound(err):
		c.stopServing(name)
	case err != nil:
		return // the server failed a read (an injected fault): the next write looks again
	case crd.DeletionTimestamp != nil:
		c.finalize(ctx, crd)
	default:
		c.establish(ctx, crd)
	}
}

// establish accepts the definition's names that clash with no other
// definition's, serves its kind once all are accepted, and says so in its
// conditions, as the real server's naming and establishing controllers
// do.
func (c *Controller) establish(ctx context.Context, crd *CustomResourceDefinition) {
	if c.stateOf(crd).terminating.Load() {
		return
	}
	names, accepted := c.acceptNames(ctx, crd)
	if accepted.Status != ConditionTrue {
		c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
			s.Status.AcceptedNames = names
			setCondition(s, NamesAccepted, accepted.Status, accepted.Reason, accepted.Message, now.Time)
			if !s.IsTrue(Established) {
				setCondition(s, Established, ConditionFalse, "NotAccepted", "not all names are accepted", now.Time)
			}
		})
		return
	}
	served := crd.DeepCopyObject().(*CustomResourceDefinition)
	served.Status.AcceptedNames = names
	if err := c.serve(served); err != nil {
		c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
			setCondition(s, NamesAccepted, ConditionFalse, "ServingFailed", err.Error(), now.Time)
		})
		return
	}
	c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
		s.Status.AcceptedNames = names
		setCondition(s, NamesAccepted, ConditionTrue, "NoConflicts", "no conflicts found", now.Time)
		if !s.IsTrue(Established) {
			setCondition(s, Established, ConditionFalse, "Installing", "the initial names have been accepted", now.Time)
		}
	})
	c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
		setCondition(s, Established, ConditionTrue, "InitialNamesAccepted", "the initial names have been accepted", now.Time)
	})
}

// serve registers the kinds of crd, whose accepted names are set, in
// place of what it served before.
func (c *Controller) serve(crd *CustomResourceDefinition) error {
	st := c.stateOf(crd)
	s, err := kindsOf(crd, st.terminating)
	if err != nil {
		return err
	}
	gr := s.kind.GroupResource()
	if err := c.srv.Scheme().ReplaceResource(gr, []meta.KindInfo{s.kind}, s.others); err != nil {
		return err
	}
	c.mu.Lock()
	old := st.gr
	st.gr = gr
	c.mu.Unlock()
	if old != gr && old != (meta.GroupResource{}) {
		_ = c.srv.Scheme().ReplaceResource(old, nil, nil)
	}
	c.srv.OnCommit(gr, func(typ meta.EventType, _ meta.Object) {
		if typ == meta.EventDeleted && st.terminating.Load() {
			c.enqueue(crd.Name)
		}
	})
	return nil
}

// stateOf returns the controller's state for crd, made anew if crd is
// a new definition of the name.
func (c *Controller) stateOf(crd *CustomResourceDefinition) *crdState {
	c.mu.Lock()
	defer c.mu.Unlock()
	st := c.state[crd.Name]
	if st == nil || st.uid != crd.UID {
		st = &crdState{uid: crd.UID, terminating: &atomic.Bool{}}
		c.state[crd.Name] = st
	}
	return st
}

// stopServing unregisters what the definition name served.
func (c *Controller) stopServing(name string) {
	c.mu.Lock()
	st := c.state[name]
	delete(c.state, name)
	c.mu.Unlock()
	if st == nil || st.gr == (meta.GroupResource{}) {
		return
	}
	_ = c.srv.Scheme().ReplaceResource(st.gr, nil, nil)
	c.srv.OnCommit(st.gr, nil)
}

// writeStatus applies change to the stored definition's status and
// writes it, unless that changes nothing; a conflict reads it again.
func (c *Controller) writeStatus(ctx context.Context, name string, change func(crd *CustomResourceDefinition, now meta.Time)) {
	_ = client.RetryOnConflict(client.DefaultRetry, func() error {
		crd, err := c.crds.Get(ctx, name, meta.GetOptions{})
		if err != nil {
			return err
		}
		change(crd, meta.NewTime(time.Now()))
		_, err = c.crds.UpdateStatus(ctx, crd, meta.UpdateOptions{FieldManager: "kube-apiserver"})
		return err
	})
}

// acceptNames decides, name by name, which of the definition's names
// it may have: one it has already, or one no other definition in its
// group has accepted (plural, singular and short names share one space,
// kind and list kind another). The condition says NamesAccepted, or, in
// the real server's words, the last clash found. A plural that a kind
// registered from Go serves is a clash too.
func (c *Controller) acceptNames(ctx context.Context, crd *CustomResourceDefinition) (CustomResourceDefinitionNames, CustomResourceDefinitionCondition) {
	resources, kinds := c.takenNames(ctx, crd)
	want, had := crd.Spec.Names, crd.Status.AcceptedNames
	out := had.DeepCopy()
	cond := CustomResourceDefinitionCondition{Type: NamesAccepted, Status: ConditionTrue, Reason: "NoConflicts", Message: "no conflicts found"}
	clash := func(reason, name string) {
		cond.Status, cond.Reason, cond.Message = ConditionFalse, reason, fmt.Sprintf("%q is already in use", name)
	}
	take := func(want, had string, taken map[string]bool, reason string, to *string) {
		if want != had && taken[want] {
			clash(reason, want)
			return
		}
		*to = want
	}
	take(want.Plural, had.Plural, resources, "PluralConflict", &out.Plural)
	take(want.Singular, had.Singular, resources, "SingularConflict", &out.Singular)
	shortOK := true
	for _, sn := range want.ShortNames {
		if !contains(had.ShortNames, sn) && resources[sn] {
			clash("ShortNamesConflict", sn)
			shortOK = false
		}
	}
	if shortOK {
		out.ShortNames = want.ShortNames
	}
	take(want.Kind, had.Kind, kinds, "KindConflict", &out.Kind)
	take(want.ListKind, had.ListKind, kinds, "ListKindConflict", &out.ListKind)
	out.Categories = want.Categories
	return out, cond
}

// takenNames are the names the other definitions of crd's group have
// accepted, and the plurals its versions would take from kinds
// registered from Go.
func (c *Controller) takenNames(ctx context.Context, crd *CustomResourceDefinition) (resources, kinds map[string]bool) {
	resources, kinds = map[string]bool{}, map[string]bool{}
	all, _, _ := c.crds.List(ctx, meta.ListOptions{})
	for _, other := range all {
		if other.Name == crd.Name || other.Spec.Group != crd.Spec.Group {
			continue
		}
		n := other.Status.AcceptedNames
		for _, r := range append([]string{n.Plural, n.Singular}, n.ShortNames...) {
			resources[r] = true
		}
		kinds[n.Kind], kinds[n.ListKind] = true, true
	}
	for _, v := range crd.Spec.Versions {
		gvr := meta.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: crd.Spec.Names.Plural}
		if info, ok := c.srv.Scheme().KindForResource(gvr); ok && !info.IsUnstructured() {
			resources[crd.Spec.Names.Plural] = true
		}
	}
	delete(resources, "")
	delete(kinds, "")
	return resources, kinds
}
