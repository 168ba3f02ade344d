package restaurant

import (
	"fmt"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile/record"
)

// desk is how the kitchen reaches the front desk (the API server): the
// server as its clients see it, the scheme its kinds are registered in and
// the clients the chef, the brigade and the waiter write with. The same
// kitchen runs beside the server (*apiserver.Server) or in another process
// (*rest.Client); nothing in it knows which.
type desk struct {
	api    client.Interface
	scheme *meta.Scheme
	orders *client.Client[*kitchen.Order]
	cooks  *client.Client[*kitchen.Cook]
	dishes *client.Client[*kitchen.Dish]
	events record.EventClientFor
}

// newDesk reaches the server api calls; its scheme must have the
// kitchen's kinds (see [kitchen.NewScheme]), and for events the built-in
// ones ([builtin.Register]).
func newDesk(api client.Interface) desk {
	return desk{
		api:    api,
		scheme: api.Scheme(),
		orders: client.New[*kitchen.Order](api),
		cooks:  client.New[*kitchen.Cook](api),
		dishes: client.New[*kitchen.Dish](api),
		events: func(ns string) record.EventClient { return api.ResourceFor(builtin.EventsResource, ns) },
	}
}

// newEventRecorder returns the chef's recorder of notes, writing through
// d; it needs the Event kind in d's scheme.
func (d desk) newEventRecorder(instance string) (*record.Recorder, error) {
	if _, ok := d.scheme.KindForResource(builtin.EventsResource); !ok {
		return nil, fmt.Errorf("kitchen: Config.Events needs the Event kind in the scheme (builtin.Register)")
	}
	return record.NewRecorder(d.events, record.Options{Component: "chef", Instance: instance, Scheme: d.scheme})
}

// openDesk makes the API server (or, with cfg.Remote, reaches one) and
// returns the kitchen's way to it.
func (r *Restaurant) openDesk(cfg Config) (desk, error) {
	r.deskOnly = cfg.DeskOnly
	if cfg.Remote != nil {
		if _, err := cfg.Remote.Scheme().KindFor(&kitchen.Order{}); err != nil {
			return desk{}, fmt.Errorf("kitchen: Config.Remote's scheme lacks the kitchen's kinds (use kitchen.NewScheme): %w", err)
		}
		return newDesk(cfg.Remote), nil
	}
	if cfg.Server.Tracer == nil {
		cfg.Server.Tracer = r.Tracer
	}
	scheme := kitchen.NewScheme()
	if cfg.Events {
		if err := builtin.Register(scheme); err != nil {
			return desk{}, err
		}
	}
	if cfg.DataDir == "" {
		r.Server = apiserver.NewServer(scheme, cfg.Server)
	} else {
		srv, err := apiserver.Open(scheme, cfg.DataDir, cfg.Server)
		if err != nil {
			return desk{}, err
		}
		r.Server, r.closeServer = srv, srv.Close
	}
	// Serve CustomResourceDefinitions, as a cluster does: kubectl apply
	// of a definition makes a new kind.
	if _, err := apiextensions.Install(r.Server); err != nil {
		return desk{}, err
	}
	return newDesk(r.Server), nil
}
