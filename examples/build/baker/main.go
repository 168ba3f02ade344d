// Command baker runs the build-along's controller (examples/build/step8)
// against any API server a kubeconfig names: the restaurant's front desk
// (go run ./examples/serve -chef=false -kubeconfig FILE) or a real
// cluster, once the definitions in examples/build/crds.yaml are applied.
// It says what it does, one line per reconcile, until interrupted.
//
//	go run ./examples/build/baker -kubeconfig /tmp/kitchen.yaml
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	cake "github.com/kitchensync/kitchensync/examples/build/step8"
	"github.com/kitchensync/kitchensync/trace"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); {
	case errors.Is(err, flag.ErrHelp):
	case err != nil:
		fmt.Fprintln(os.Stderr, "baker:", err)
		os.Exit(2)
	}
}

// run reads the command line, connects and bakes until ctx ends.
func run(ctx context.Context, args []string, out, errOut io.Writer) error {
	fs := flag.NewFlagSet("baker", flag.ContinueOnError)
	fs.SetOutput(errOut)
	kubeconfig := fs.String("kubeconfig", "", "the kubeconfig file of the API server (required)")
	context := fs.String("context", "", "the kubeconfig's context (default: its current-context)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *kubeconfig == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("-kubeconfig FILE is required, and nothing else")
	}
	kc, err := rest.LoadKubeconfig(*kubeconfig)
	if err != nil {
		return err
	}
	cfg, err := kc.Config(*context)
	if err != nil {
		return err
	}
	scheme := meta.NewScheme()
	if err := cake.Register(scheme); err != nil {
		return err
	}
	api, err := rest.New(cfg, scheme)
	if err != nil {
		return err
	}
	tr := trace.New()
	tr.Subscribe(func(r trace.Record) {
		if r.Action == trace.ReconcileFinished && r.Err != nil {
			fmt.Fprintf(out, "baker: %s: %v (tries again after a backoff)\n", r.Key, r.Err)
		} else if r.Action == trace.ReconcileFinished {
			fmt.Fprintf(out, "baker: %s reconciled\n", r.Key)
		}
	})
	fmt.Fprintf(out, "baker: watching cakes at %s (Ctrl-C stops)\n", cfg.Host)
	if err := cake.Run(ctx, api, &cake.Oven{}, tr); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}
