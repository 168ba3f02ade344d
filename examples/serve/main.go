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
// and for examples/chef. With -chef=false it serves the front desk (the
// API and the page) and cooks nothing: a chef in another process, or
// several competing for the lead, does the cooking.
//
// The same address serves the Kubernetes API (under /api and /apis), so
// kubectl can watch the orders the page places:
//
//	kubectl --server http://127.0.0.1:PORT get orders -n dinner -w
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
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
}

func parse(args []string, out io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0 picks a free one)")
	fs.DurationVar(&o.minute, "minute", 200*time.Millisecond, "real length of one kitchen minute (the page's speed control changes it)")
	fs.IntVar(&o.chefs, "chefs", 2, "chef workers")
	fs.StringVar(&o.data, "data", "", "keep the API's objects in this directory, as etcd does, and start from what it holds (empty: in memory)")
	fs.BoolVar(&o.chef, "chef", true, "run the chef in this process (false: the desk only; run examples/chef beside it)")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "write a kubeconfig for this server to `FILE`, for kubectl and examples/chef")
	return o, fs.Parse(args)
}

// run opens the restaurant, serves the page and the API on one listener,
// and returns when ctx ends.
func run(ctx context.Context, args []string, out io.Writer) error {
	o, err := parse(args, out)
	if err != nil {
		return err
	}
	r, err := kitchen.Open(ctx, kitchen.Config{Minute: o.minute, Chefs: o.chefs, Stock: stock.Plentiful(), Tracer: trace.New(),
		DataDir: o.data, DeskOnly: !o.chef, Events: true, Instance: "serve"})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	if o.kubeconfig != "" {
		if err := os.WriteFile(o.kubeconfig, []byte(kubeconfig("http://"+ln.Addr().String(), r.Namespace)), 0o600); err != nil {
			ln.Close()
			return err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	wg.Go(func() { errs <- r.Run(ctx) })
	wg.Go(func() { errs <- liveview.Serve(ctx, ln, r) })
	fmt.Fprintf(out, "the pass is open: http://%s/\n", ln.Addr())
	fmt.Fprintf(out, "kubectl works on the same address: kubectl --server http://%s get orders -n %s -w\n", ln.Addr(), r.Namespace)
	if o.kubeconfig != "" {
		fmt.Fprintf(out, "kubeconfig written: kubectl --kubeconfig %s get orders -w\n", o.kubeconfig)
	}
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

// kubeconfig is a kubeconfig for the server at url, with namespace as
// the context's namespace.
func kubeconfig(url, namespace string) string {
	return `apiVersion: v1
kind: Config
clusters:
- name: kitchensync
  cluster:
    server: ` + url + `
users:
- name: kitchensync
  user: {}
contexts:
- name: kitchensync
  context:
    cluster: kitchensync
    user: kitchensync
    namespace: ` + namespace + `
current-context: kitchensync
`
}
