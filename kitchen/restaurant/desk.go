package restaurant

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/reconcile/record"
)

// desk is how the kitchen reaches the front desk (the API server): the
// scheme its kinds are registered in, the runner's informer factory and
// the clients the chef, the brigade and the waiter write with. The same
// kitchen runs beside the server ([inProcess]) or in another process
// ([overHTTP]); nothing else in it knows which.
type desk struct {
	scheme  *meta.Scheme
	factory *informer.SharedInformerFactory
	orders  *client.Client[*kitchen.Order]
	cooks   *client.Client[*kitchen.Cook]
	dishes  *client.Client[*kitchen.Dish]
	events  record.EventClientFor
}

// newEventRecorder returns the chef's recorder of notes, writing through
// d; it needs the Event kind in d's scheme.
func (d desk) newEventRecorder(instance string) (*record.Recorder, error) {
	if _, ok := d.scheme.KindForResource(builtin.EventsResource); !ok {
		return nil, fmt.Errorf("kitchen: Config.Events needs the Event kind in the scheme (builtin.Register)")
	}
	return record.NewRecorder(d.events, record.Options{Component: "chef", Instance: instance, Scheme: d.scheme})
}

// inProcess reaches srv directly.
func inProcess(srv *apiserver.Server, resync time.Duration, opts []informer.FactoryOption) desk {
	return desk{
		scheme:  srv.Scheme(),
		factory: informer.NewSharedInformerFactory(srv, resync, opts...),
		orders:  client.New[*kitchen.Order](srv),
		cooks:   client.New[*kitchen.Cook](srv),
		dishes:  client.New[*kitchen.Dish](srv),
		events:  func(ns string) record.EventClient { return srv.Resource(builtin.EventsResource).Namespace(ns) },
	}
}

// overHTTP reaches the server c calls. c's scheme must have the kitchen's
// kinds (see [kitchen.NewScheme]), and for events the built-in ones
// ([builtin.Register]).
func overHTTP(c *rest.Client, resync time.Duration, opts []informer.FactoryOption) (desk, error) {
	if _, err := c.Scheme().KindFor(&kitchen.Order{}); err != nil {
		return desk{}, fmt.Errorf("kitchen: Config.Remote's scheme lacks the kitchen's kinds (use kitchen.NewScheme): %w", err)
	}
	return desk{
		scheme:  c.Scheme(),
		factory: informer.NewSharedInformerFactory(c, resync, opts...),
		orders:  client.New[*kitchen.Order](c),
		cooks:   client.New[*kitchen.Cook](c),
		dishes:  client.New[*kitchen.Dish](c),
		events:  func(ns string) record.EventClient { return c.Resource(builtin.EventsResource).Namespace(ns) },
	}, nil
}

// openDesk makes the API server (or, with cfg.Remote, reaches one) and
// returns the kitchen's way to it.
func (r *Restaurant) openDesk(cfg Config) (desk, error) {
	r.deskOnly = cfg.DeskOnly
	resync := r.Clock.Real(cfg.Resync)
	opts := append([]informer.FactoryOption{informer.WithTracer(r.Tracer)}, cfg.InformerOptions...)
	if cfg.Remote != nil {
		return overHTTP(cfg.Remote, resync, opts)
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
	return inProcess(r.Server, resync, opts), nil
}
