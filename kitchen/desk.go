package kitchen

import (
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/reconcile"
	"github.com/kitchensync/kitchensync/trace"
)

// desk is how the kitchen reaches the front desk (the API server): the
// scheme its kinds are registered in, the runner's informer factory and
// the clients the chef, the brigade and the waiter write with. The same
// kitchen runs beside the server ([inProcess]) or in another process
// ([overHTTP]); nothing else in it knows which.
type desk struct {
	scheme  *apiserver.Scheme
	factory *informer.SharedInformerFactory
	orders  reconcile.NamespacedAPI[*Order]
	cooks   reconcile.NamespacedAPI[*Cook]
	dishes  reconcile.NamespacedAPI[*Dish]
}

// inProcess reaches srv directly.
func inProcess(srv *apiserver.Server, resync time.Duration, tracer *trace.Tracer) desk {
	return desk{
		scheme:  srv.Scheme(),
		factory: informer.NewSharedInformerFactory(srv, resync, informer.WithTracer(tracer)),
		orders:  reconcile.Namespaced[*Order](apiserver.NewClient[*Order](srv)),
		cooks:   reconcile.Namespaced[*Cook](apiserver.NewClient[*Cook](srv)),
		dishes:  reconcile.Namespaced[*Dish](apiserver.NewClient[*Dish](srv)),
	}
}

// overHTTP reaches the server c calls. c's scheme must have the kitchen's
// kinds (see [NewScheme]).
func overHTTP(c *rest.Client, resync time.Duration, tracer *trace.Tracer) (desk, error) {
	if _, err := c.Scheme().KindFor(&Order{}); err != nil {
		return desk{}, fmt.Errorf("kitchen: Config.Remote's scheme lacks the kitchen's kinds (use kitchen.NewScheme): %w", err)
	}
	lws := func(gvr apiserver.GroupVersionResource, ns string) informer.ListerWatcher {
		return c.Resource(gvr).Namespace(ns)
	}
	return desk{
		scheme:  c.Scheme(),
		factory: informer.NewSharedInformerFactoryFor(c.Scheme(), lws, resync, informer.WithTracer(tracer)),
		orders:  reconcile.Namespaced[*Order](rest.NewTypedClient[*Order](c)),
		cooks:   reconcile.Namespaced[*Cook](rest.NewTypedClient[*Cook](c)),
		dishes:  reconcile.Namespaced[*Dish](rest.NewTypedClient[*Dish](c)),
	}, nil
}
