package apiextensions

import (
	"context"
	"fmt"
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

// establish accepts the definition's names if nothing clashes with
// them, serves its kind, and says so in its conditions.
func (c *Controller) establish(ctx context.Context, crd *CustomResourceDefinition) {
	if c.stateOf(crd).terminating.Load() {
		return
	}
	if reason, msg := c.nameConflict(ctx, crd); reason != "" {
		c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
			setCondition(s, NamesAccepted, ConditionFalse, reason, msg, now.Time)
			if !s.IsTrue(Established) {
				setCondition(s, Established, ConditionFalse, "NotAccepted", "not all names are accepted", now.Time)
			}
		})
		return
	}
	accepted := crd.DeepCopyObject().(*CustomResourceDefinition)
	accepted.Status.AcceptedNames = crd.Spec.Names.DeepCopy()
	if err := c.serve(accepted); err != nil {
		c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
			setCondition(s, NamesAccepted, ConditionFalse, "ServingFailed", err.Error(), now.Time)
		})
		return
	}
	c.writeStatus(ctx, crd.Name, func(s *CustomResourceDefinition, now meta.Time) {
		s.Status.AcceptedNames = accepted.Status.AcceptedNames
		setCondition(s, NamesAccepted, ConditionTrue, "NoConflicts", "no conflicts found", now.Time)
		if s.Condition(Established) == nil {
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

// nameConflict reports why the definition's names clash with another
// definition's accepted names in its group, or with a kind registered
// from Go, in the real server's words; "" if they do not.
func (c *Controller) nameConflict(ctx context.Context, crd *CustomResourceDefinition) (reason, msg string) {
	all, _, err := c.crds.List(ctx, meta.ListOptions{})
	if err != nil {
		return "", ""
	}
	n := crd.Spec.Names
	for _, other := range all {
		if other.Name == crd.Name || other.Spec.Group != crd.Spec.Group {
			continue
		}
		if r, m := clash(n, other.Status.AcceptedNames); r != "" {
			return r, m
		}
	}
	for _, v := range crd.Spec.Versions {
		gvr := meta.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: n.Plural}
		if info, ok := c.srv.Scheme().KindForResource(gvr); ok && !info.IsUnstructured() {
			return "PluralConflict", fmt.Sprintf("%q is already in use", n.Plural)
		}
	}
	return "", ""
}

// clash compares requested names with names another definition has.
func clash(n, other CustomResourceDefinitionNames) (reason, msg string) {
	taken := append([]string{other.Plural, other.Singular}, other.ShortNames...)
	switch {
	case contains(taken, n.Plural):
		return "PluralConflict", fmt.Sprintf("%q is already in use", n.Plural)
	case contains(taken, n.Singular):
		return "SingularConflict", fmt.Sprintf("%q is already in use", n.Singular)
	case n.Kind == other.Kind || n.Kind == other.ListKind:
		return "KindConflict", fmt.Sprintf("%q is already in use", n.Kind)
	case n.ListKind == other.Kind || n.ListKind == other.ListKind:
		return "ListKindConflict", fmt.Sprintf("%q is already in use", n.ListKind)
	}
	for _, s := range n.ShortNames {
		if contains(taken, s) {
			return "ShortNamesConflict", fmt.Sprintf("%q is already in use", s)
		}
	}
	return "", ""
}
