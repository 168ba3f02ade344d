package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	"github.com/kitchensync/kitchensync/examples/internal/stock"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile/leaderelection"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chef:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	kubeconfig, context, namespace, id, lease string
	minute                                    time.Duration
	chefs, verbosity, burst                   int
	qps                                       float64
	leaseDuration, renewDeadline, retryPeriod time.Duration
}

func parse(args []string, out io.Writer) (options, error) {
	var o options
	host, _ := os.Hostname()
	fs := flag.NewFlagSet("chef", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "kubeconfig file of the front desk (required; in a pod, \"in-cluster\")")
	fs.StringVar(&o.context, "context", "", "kubeconfig context (default: the current one)")
	fs.StringVar(&o.namespace, "namespace", "", "namespace of the orders and the Lease (default: the context's, else dinner)")
	fs.StringVar(&o.id, "id", fmt.Sprintf("%s-%d", host, os.Getpid()), "this chef's identity in the Lease")
	fs.StringVar(&o.lease, "lease", "kitchensync-chef", "name of the Lease the chefs compete for")
	fs.DurationVar(&o.minute, "minute", 200*time.Millisecond, "real length of one kitchen minute")
	fs.IntVar(&o.chefs, "chefs", 2, "chef workers")
	fs.Float64Var(&o.qps, "qps", 50, "requests per second to the API server (client-go's default is 5; controllers raise it)")
	fs.IntVar(&o.burst, "burst", 100, "burst of requests above -qps")
	fs.IntVar(&o.verbosity, "v", 0, "narration: 0 leadership only, 1 every hand-off, 2 everything")
	fs.DurationVar(&o.leaseDuration, "lease-duration", 15*time.Second, "how long a Lease must go unrenewed before another chef takes it")
	fs.DurationVar(&o.renewDeadline, "renew-deadline", 10*time.Second, "how long the leader tries to renew before it stops cooking")
	fs.DurationVar(&o.retryPeriod, "retry-period", 2*time.Second, "time between attempts to acquire or renew")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.kubeconfig == "" {
		return o, errors.New("-kubeconfig is required")
	}
	return o, nil
}

// connect returns a client for the front desk and the namespace to work in.
func connect(o options) (*rest.Client, string, error) {
	var cfg *rest.Config
	ns := o.namespace
	if o.kubeconfig == "in-cluster" {
		c, err := rest.InClusterConfig()
		if err != nil {
			return nil, "", err
		}
		cfg = c
	} else {
		k, err := rest.LoadKubeconfig(o.kubeconfig)
		if err != nil {
			return nil, "", err
		}
		if cfg, err = k.Config(o.context); err != nil {
			return nil, "", err
		}
		if ns == "" {
			ns, _ = k.Namespace(o.context)
		}
	}
	if ns == "" {
		ns = "dinner"
	}
	cfg.UserAgent = "kitchensync-chef/" + o.id
	cfg.QPS, cfg.Burst = float32(o.qps), o.burst
	scheme := kitchen.NewScheme()
	if err := builtin.Register(scheme); err != nil {
		return nil, "", err
	}
	c, err := rest.New(cfg, scheme)
	return c, ns, err
}

// run competes for the Lease until ctx ends, and cooks while it leads. A
// chef that loses the Lease stops cooking (the kitchen's caches, stations
// and pantry go with it) and competes again with a fresh kitchen, as a
// client-go program restarts.
func run(ctx context.Context, args []string, out io.Writer) error {
	o, err := parse(args, out)
	if err != nil {
		return err
	}
	c, ns, err := connect(o)
	if err != nil {
		return err
	}
	defer c.CloseIdleConnections()
	say := func(format string, args ...any) { fmt.Fprintf(out, "[%s] %s\n", o.id, fmt.Sprintf(format, args...)) }
	say("competing for the Lease %s/%s", ns, o.lease)
	for ctx.Err() == nil {
		var cookErr error
		le, err := leaderelection.New(leaderelection.Config{
			Client: c.Resource(builtin.LeasesResource).Namespace(ns), Namespace: ns, Name: o.lease, Identity: o.id,
			LeaseDuration: o.leaseDuration, RenewDeadline: o.renewDeadline, RetryPeriod: o.retryPeriod,
			ReleaseOnCancel: true,
			Callbacks: leaderelection.Callbacks{
				OnStartedLeading: func(ctx context.Context) {
					say("leading: the kitchen opens")
					cookErr = cook(ctx, c, ns, o, out)
				},
				OnStoppedLeading: func() { say("stopped leading: the kitchen closes") },
				OnNewLeader:      func(id string) { say("the leader is %s", id) },
			},
		})
		if err != nil {
			return err
		}
		le.Run(ctx)
		if cookErr != nil {
			return cookErr
		}
	}
	return nil
}

// cook runs a kitchen against the front desk until ctx ends.
func cook(ctx context.Context, c *rest.Client, ns string, o options, out io.Writer) error {
	cfg := restaurant.Config{Namespace: ns, Minute: o.minute, Chefs: o.chefs, Stock: stock.Plentiful(),
		Remote: c, Events: true, Instance: o.id}
	if o.verbosity > 0 {
		cfg.Out, cfg.Verbosity = out, narration.Verbosity(o.verbosity)
	}
	r, err := restaurant.Open(ctx, cfg)
	if err != nil {
		return err
	}
	return r.Run(ctx)
}
