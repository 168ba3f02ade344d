package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/internal/cli"
	"github.com/kitchensync/kitchensync/kitchen"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var bad badUsage
	switch err := run(ctx, os.Args[1:], os.Stdout); {
	case errors.Is(err, flag.ErrHelp): // -h: the usage is printed, and that is all
	case errors.As(err, &bad):
		fmt.Fprintln(os.Stderr, "try-kubectl:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "try-kubectl:", err)
		os.Exit(1)
	}
}

// badUsage is a command line the program refuses: main exits 2 on it.
type badUsage struct{ error }

// run parses the flags, starts the server and serves until ctx is done or
// -duration has passed.
func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("try-kubectl", flag.ContinueOnError)
	fs.SetOutput(out)
	addr := fs.String("addr", "127.0.0.1:8001", "address to listen on (host:port; port 0 picks a free one); one that is not loopback needs -token")
	seed := fs.Bool("seed", true, "create a menu and a few orders to look at")
	duration := cli.Duration(fs, "duration", 0, 0, 24*time.Hour, "stop after this long (0: run until interrupted)")
	var door doorFlags
	fs.StringVar(&door.token, "token", "", "bearer token every request must carry (written into the kubeconfig)")
	fs.StringVar(&door.acceptHosts, "accept-hosts", "", "regular expression of the Host names to answer, as kubectl proxy --accept-hosts (default: loopback names, or any host with -token)")
	fs.StringVar(&door.certFile, "tls-cert", "", "serve HTTPS with this certificate (PEM; with -tls-key)")
	fs.StringVar(&door.keyFile, "tls-key", "", "the private key of -tls-cert (PEM)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return badUsage{err}
	}
	if err := cli.NoArgs(fs); err != nil {
		return badUsage{err}
	}
	opts, err := door.options(*addr)
	if err != nil {
		return err
	}
	// Seeding takes no time; it should not fail because Ctrl-C came early.
	srv, err := newServer(context.WithoutCancel(ctx), *seed)
	if err != nil {
		return err
	}
	ln, url, err := door.listen(*addr)
	if err != nil {
		return err
	}
	kubeconfig, err := writeKubeconfig(url, door)
	if err != nil {
		ln.Close()
		return err
	}
	defer os.RemoveAll(filepath.Dir(kubeconfig))
	printIntro(out, url, kubeconfig)
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	return serve(ctx, ln, narrate(out, httpapi.NewHandler(srv, opts...)))
}

// newServer returns an API server with the kitchen's kinds, seeded with a
// menu and three orders if seed is set.
func newServer(ctx context.Context, seed bool) (*apiserver.Server, error) {
	// A process started again must not hand out resourceVersions its
	// clients already saw: start above them (they get 410 and list again).
	srv := apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{
		ResourceVersionStart: apiserver.ResourceVersionFromClock(time.Now())})
	if _, err := apiextensions.Install(srv); err != nil { // kubectl apply of a CRD makes a kind
		return nil, err
	}
	if !seed {
		return srv, nil
	}
	dishes := client.New[*kitchen.Dish](srv)
	for _, d := range seedDishes() {
		if _, err := dishes.Create(ctx, d, meta.CreateOptions{}); err != nil {
			return nil, err
		}
	}
	orders := client.New[*kitchen.Order](srv).Namespace("default")
	for _, o := range seedOrders() {
		if _, err := orders.Create(ctx, o, meta.CreateOptions{}); err != nil {
			return nil, err
		}
	}
	return srv, nil
}

func seedDishes() []*kitchen.Dish {
	dish := func(name string, minutes float64, difficulty int, ingredients map[string]kitchen.Quantity) *kitchen.Dish {
		return &kitchen.Dish{
			ObjectMeta: meta.ObjectMeta{Name: name},
			Spec:       kitchen.DishSpec{Ingredients: ingredients, CookingTime: kitchen.Minutes(minutes), Difficulty: difficulty},
		}
	}
	return []*kitchen.Dish{
		dish("beef-wellington", 40, 5, map[string]kitchen.Quantity{"filet-mignon": "500g", "puff-pastry": "200g"}),
		dish("pasta", 12, 2, map[string]kitchen.Quantity{"spaghetti": "120g", "tomato": "2"}),
	}
}

func seedOrders() []*kitchen.Order {
	order := func(name, section string, table int, dish string) *kitchen.Order {
		return &kitchen.Order{
			ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"section": section}},
			Spec: kitchen.OrderSpec{Table: table, Section: section,
				Items: []kitchen.OrderItem{{Dish: dish, Quantity: 1}}},
		}
	}
	return []*kitchen.Order{
		order("table-1", "vip", 1, "beef-wellington"),
		order("table-2", "terrace", 2, "pasta"),
		order("table-3", "main", 3, "pasta"),
	}
}

// writeKubeconfig writes a kubeconfig for the server at url into a new
// temporary directory and returns its path. It carries the door's token
// and certificate, if any.
func writeKubeconfig(url string, door doorFlags) (string, error) {
	dir, err := os.MkdirTemp("", "kitchensync-kubectl-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "kubeconfig")
	return path, os.WriteFile(path, []byte(kubeconfigWith(url, door)), 0o600)
}

// kubeconfigFor returns a kubeconfig with one cluster at url (plain HTTP, no
// credentials), one context "kitchensync" using it, selected.
func kubeconfigFor(url string) string { return kubeconfigWith(url, doorFlags{}) }

// kubeconfigWith is kubeconfigFor with the door's token and, for HTTPS,
// its certificate as the authority to trust (a self-signed one is its
// own).
func kubeconfigWith(url string, door doorFlags) string {
	cluster, user := "", "{}"
	if door.certFile != "" {
		cluster = "\n    certificate-authority: " + strconv.Quote(door.certFile)
	}
	if door.token != "" {
		user = "{token: " + strconv.Quote(door.token) + "}"
	}
	return `apiVersion: v1
kind: Config
clusters:
- name: kitchensync
  cluster:
    server: ` + url + cluster + `
users:
- name: kitchensync
  user: ` + user + `
contexts:
- name: kitchensync
  context:
    cluster: kitchensync
    user: kitchensync
    namespace: default
current-context: kitchensync
`
}

func printIntro(out io.Writer, url, kubeconfig string) {
	fmt.Fprintf(out, "[apiserver] serving the kitchen's API at %s\n", url)
	fmt.Fprintf(out, "[apiserver] kubeconfig: %s\n\n", kubeconfig)
	fmt.Fprintf(out, "Try, in another terminal:\n\n")
	fmt.Fprintf(out, "  export KUBECONFIG=%s\n", kubeconfig)
	for _, cmd := range []string{
		"kubectl api-resources",
		"kubectl get dishes",
		"kubectl get orders -o wide --show-labels",
		"kubectl get orders --field-selector spec.section=vip",
		"kubectl get orders -l section=terrace -o json",
		"kubectl patch order table-2 --type=merge -p '{\"spec\":{\"priority\":5}}'",
		"kubectl get orders -w      # and in a third terminal: kubectl delete order table-3",
		"kubectl get --raw /apis/menu.example.com/v1",
	} {
		fmt.Fprintf(out, "  %s\n", cmd)
	}
	fmt.Fprintln(out)
}

// serve serves h on ln until ctx is done, then shuts the server down,
// ending open watches, and waits for it.
func serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	hs := &http.Server{Handler: h, BaseContext: func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 90 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// The base context is done, so every watch has already been told to
	// end; Shutdown waits for their handlers to return.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(shutdownCtx)
	if serveErr := <-errc; !errors.Is(serveErr, http.ErrServerClosed) {
		err = errors.Join(err, serveErr)
	}
	return err
}
