package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/storage"
	"github.com/kitchensync/kitchensync/examples/internal/cli"
	"github.com/kitchensync/kitchensync/examples/internal/stock"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/kitchen/restaurant"
	"github.com/kitchensync/kitchensync/trace"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var bad usageError
	switch err := run(ctx, os.Args[1:], os.Stdout); {
	case errors.Is(err, flag.ErrHelp):
	case errors.As(err, &bad):
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

// usageError is a command line the program refuses: main exits 2 on it.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// options are the command's flags.
type options struct {
	addr, kubeconfig, data string
	minute                 time.Duration
	chefs                  int
	queue                  informer.QueueKind
	chef, recover          bool
	door                   doorFlags
}

func parse(args []string, out io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0 picks a free one); one other machines can reach needs -token")
	minute := cli.Duration(fs, "minute", 200*time.Millisecond, time.Microsecond, time.Minute, "real length of one kitchen minute (the page's speed control changes it)")
	chefs := cli.Int(fs, "chefs", 2, 1, 64, "chef workers")
	fs.StringVar(&o.data, "data", "", "keep the API's objects in this directory, as etcd does, and start from what it holds (empty: in memory)")
	fs.BoolVar(&o.recover, "recover", false, "if the -data directory is damaged, keep the writes before the damage and move the rest aside (storage.Recover), then start")
	fs.BoolVar(&o.chef, "chef", true, "run the chef in this process (false: the desk only; run examples/chef beside it)")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "write a kubeconfig for this server to `FILE`, for kubectl and examples/chef")
	fs.Func("queue", "the runner's queue: atomic (client-go v0.37's RealFIFO, the default), inorder (1.33 to 1.35) or deltafifo (before 1.33)", func(s string) error {
		k, ok := map[string]informer.QueueKind{"atomic": informer.QueueAtomic, "inorder": informer.QueueInOrder, "deltafifo": informer.QueueDeltaFIFO}[s]
		if !ok {
			return fmt.Errorf("want atomic, inorder or deltafifo, got %q", s)
		}
		o.queue = k
		return nil
	})
	o.door.register(fs)
	err := fs.Parse(args)
	if err == nil {
		err = cli.NoArgs(fs)
	}
	if err == nil {
		err = o.door.check(o.addr)
	}
	o.minute, o.chefs = *minute, *chefs
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return o, usageError{err}
	}
	return o, err
}

// kitchenConfig is the restaurant the command serves.
func kitchenConfig(o options) restaurant.Config {
	return restaurant.Config{Minute: o.minute, Chefs: o.chefs, Stock: stock.Plentiful(), Tracer: trace.New(),
		DataDir: o.data, DeskOnly: !o.chef, Events: true, Instance: "serve",
		InformerOptions: []informer.FactoryOption{informer.WithQueue(o.queue)}}
}

// run opens the restaurant, serves the page and the API on one listener,
// and returns when ctx ends.
func run(ctx context.Context, args []string, out io.Writer) error {
	o, err := parse(args, out)
	if err != nil {
		return err
	}
	d, err := o.door.load()
	if err != nil {
		return err
	}
	if err := recoverData(o, out); err != nil {
		return err
	}
	// The gate lets the page pause the kitchen at its hand-offs and step
	// it one at a time (liveview.Gate); it is wired in through the
	// restaurant's seams before it opens.
	gate := liveview.NewGate()
	cfg := kitchenConfig(o)
	gate.Pace(&cfg)
	r, err := restaurant.Open(ctx, cfg)
	if err != nil {
		return err
	}
	ln, err := d.listen(o.addr)
	if err != nil {
		return err
	}
	url := d.url(ln.Addr())
	if o.kubeconfig != "" {
		if err := os.WriteFile(o.kubeconfig, []byte(d.kubeconfig(url, r.Namespace)), 0o600); err != nil {
			ln.Close()
			return err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The site subscribes to the trace and the informers before the
	// runner's first LIST, so the page shows it.
	site := liveview.NewSite(ctx, r, append(d.options(), liveview.WithGate(gate))...)
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	wg.Go(func() { errs <- r.Run(ctx) })
	wg.Go(func() { errs <- site.Serve(ctx, ln) })
	d.announce(out, url, r.Namespace, o.kubeconfig)
	if !o.chef {
		fmt.Fprintf(out, "no chef here: go run ./examples/chef -kubeconfig FILE\n")
	}
	err = <-errs // the first to stop stops the other
	cancel()
	wg.Wait()
	close(errs)
	for e := range errs {
		err = errors.Join(err, e)
	}
	return err
}

// recoverData runs storage.Recover on the data directory when -recover
// asks for it, and says what it did.
func recoverData(o options, out io.Writer) error {
	if !o.recover {
		return nil
	}
	if o.data == "" {
		return errors.New("-recover needs -data DIR")
	}
	r, err := storage.Recover(o.data)
	switch {
	case err != nil:
		return err
	case r.Damage == nil:
		fmt.Fprintf(out, "%s is not damaged: nothing to recover\n", o.data)
	default:
		fmt.Fprintf(out, "recovered %s: kept every write up to resourceVersion %d; the damage (%v) and what followed it are in %s\n",
			o.data, r.Kept, r.Damage, r.MovedTo)
	}
	return nil
}
