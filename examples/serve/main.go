// Command serve opens the restaurant and its live view, "the pass": a web
// page that shows every hand-off of the machinery as it happens, with
// buttons that act on the real server.
//
//	go run ./examples/serve                 # then open the printed address
//	go run ./examples/serve -addr 127.0.0.1:8080 -minute 200ms
//	go run ./examples/serve -data ./desk    # orders survive a restart (or a kill -9)
//	go run ./examples/serve -chef=false -kubeconfig /tmp/kitchen.yaml   # the desk only
//	go run ./examples/chef -kubeconfig /tmp/kitchen.yaml                # the chef, apart
//
// With -kubeconfig the server writes a kubeconfig for itself, for kubectl
// and for examples/chef (with the token and the certificate, when there
// are). With -chef=false it serves the front desk (the
// API and the page) and cooks nothing: a chef in another process, or
// several competing for the lead, does the cooking.
//
// The same address serves the Kubernetes API (under /api and /apis), so
// kubectl can watch the orders the page places:
//
//	kubectl --server http://127.0.0.1:PORT get orders -n dinner -w
//
// # The door
//
// By default the server answers only requests whose Host names the
// loopback interface, so that a web page elsewhere cannot reach it by
// rebinding its name to 127.0.0.1. To serve other machines:
//
//	go run ./examples/serve -addr :8443 -token-file ./token \
//	    -tls-cert cert.pem -tls-key key.pem -accept-hosts '^kitchen\.lan$' -kubeconfig /tmp/k.yaml
//
// An -addr other machines can reach is refused without -token (or
// -token-file). The printed address carries ?token=, which the page trades
// for a cookie; kubectl and examples/chef send the token the kubeconfig
// carries.
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

	"github.com/kitchensync/kitchensync/examples/internal/stock"
	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/liveview"
	"github.com/kitchensync/kitchensync/trace"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		os.Exit(1)
	}
}

// options are the command's flags.
type options struct {
	addr, kubeconfig, data string
	minute                 time.Duration
	chefs                  int
	chef                   bool
	door                   doorFlags
}

func parse(args []string, out io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0 picks a free one); one other machines can reach needs -token")
	fs.DurationVar(&o.minute, "minute", 200*time.Millisecond, "real length of one kitchen minute (the page's speed control changes it)")
	fs.IntVar(&o.chefs, "chefs", 2, "chef workers")
	fs.StringVar(&o.data, "data", "", "keep the API's objects in this directory, as etcd does, and start from what it holds (empty: in memory)")
	fs.BoolVar(&o.chef, "chef", true, "run the chef in this process (false: the desk only; run examples/chef beside it)")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "write a kubeconfig for this server to `FILE`, for kubectl and examples/chef")
	o.door.register(fs)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	return o, o.door.check(o.addr)
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
	r, err := kitchen.Open(ctx, kitchen.Config{Minute: o.minute, Chefs: o.chefs, Stock: stock.Plentiful(), Tracer: trace.New(),
		DataDir: o.data, DeskOnly: !o.chef, Events: true, Instance: "serve"})
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
	site := liveview.NewSite(ctx, r, d.options()...)
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
