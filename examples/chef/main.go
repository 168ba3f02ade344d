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
	"github.com/kitchensync/kitchensync/examples/internal/cli"
	"github.com/kitchensync/kitchensync/examples/internal/stock"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/reconcile/leaderelection"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var bad usageError
	switch err := run(ctx, os.Args[1:], os.Stdout); {
	case errors.Is(err, flag.ErrHelp):
	case errors.As(err, &bad):
		fmt.Fprintln(os.Stderr, "chef:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "chef:", err)
		os.Exit(1)
	}
}

// usageError is a command line the program refuses: main exits 2 on it.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

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
	minute := cli.Duration(fs, "minute", 200*time.Millisecond, time.Microsecond, time.Minute, "real length of one kitchen minute")
	chefs := cli.Int(fs, "chefs", 2, 1, 64, "chef workers")
	qps := cli.Float(fs, "qps", 50, 0.1, 100_000, "requests per second to the API server (client-go's default is 5; controllers raise it)")
	burst := cli.Int(fs, "burst", 100, 1, 100_000, "burst of requests above -qps")
	verbosity := cli.Int(fs, "v", 0, 0, 2, "narration: 0 leadership only, 1 every hand-off, 2 everything")
	leaseDuration := cli.Duration(fs, "lease-duration", 15*time.Second, time.Second, time.Hour, "how long a Lease must go unrenewed before another chef takes it")
	renewDeadline := cli.Duration(fs, "renew-deadline", 10*time.Second, time.Second, time.Hour, "how long the leader tries to renew before it stops cooking")
	retryPeriod := cli.Duration(fs, "retry-period", 2*time.Second, 100*time.Millisecond, time.Hour, "time between attempts to acquire or renew")
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return o, err
	}
	o.minute, o.chefs, o.qps, o.burst, o.verbosity = *minute, *chefs, *qps, *burst, *verbosity
	o.leaseDuration, o.renewDeadline, o.retryPeriod = *leaseDuration, *renewDeadline, *retryPeriod
	switch {
	case err != nil:
	case fs.NArg() > 0:
		err = cli.NoArgs(fs)
	case o.kubeconfig == "":
		err = errors.New("-kubeconfig is required")
	case o.renewDeadline >= o.leaseDuration:
		err = fmt.Errorf("-renew-deadline %v must be shorter than -lease-duration %v, as client-go's leader election requires", o.renewDeadline, o.leaseDuration)
	case float64(o.renewDeadline) <= 1.2*float64(o.retryPeriod):
		err = fmt.Errorf("-renew-deadline %v must be longer than 1.2 × -retry-period %v, as client-go's leader election requires", o.renewDeadline, o.retryPeriod)
	}
	if err != nil {
		return o, usageError{err}
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
