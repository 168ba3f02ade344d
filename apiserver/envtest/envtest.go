package envtest

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
)

// Options say what a test's server serves.
type Options struct {
	// Kinds are registered in a new scheme (or in Scheme, if set).
	Kinds []meta.KindInfo
	// Scheme, if set, is the scheme to serve; Kinds are added to it.
	Scheme *meta.Scheme
	// Server are the options of the [apiserver.Server].
	Server apiserver.Options
	// HTTP are the options of the [httpapi.Handler].
	HTTP []httpapi.Option
	// CRDDirectoryPaths are files and directories of
	// CustomResourceDefinitions (YAML or JSON, as kubebuilder writes them
	// in config/crd/bases) to apply before Start returns, as
	// controller-runtime's envtest.Environment takes them; see
	// [Environment.InstallCRDs].
	CRDDirectoryPaths []string
}

// Environment is a running server for one test. Its fields are for
// reading; Start's cleanup stops it.
type Environment struct {
	// Server is the in-process server, for setting up objects directly
	// or injecting faults.
	Server *apiserver.Server
	// Config reaches the server: Host is its URL (http://127.0.0.1:PORT),
	// which is all client-go's rest.Config needs.
	Config rest.Config
	// Kubeconfig is the path of a kubeconfig file whose current context
	// is the server, namespace "default".
	Kubeconfig string
}

// Start serves the kinds of opts on a loopback port until the test ends.
// A kind that does not register fails the test.
func Start(tb testing.TB, opts Options) *Environment {
	tb.Helper()
	scheme := opts.Scheme
	if scheme == nil {
		scheme = meta.NewScheme()
	}
	if err := scheme.Register(opts.Kinds...); err != nil {
		tb.Fatalf("envtest: registering the kinds: %v", err)
	}
	srv := apiserver.NewServer(scheme, opts.Server)
	if _, err := apiextensions.Install(srv); err != nil {
		tb.Fatalf("envtest: serving CustomResourceDefinitions: %v", err)
	}
	ts := httptest.NewUnstartedServer(httpapi.NewHandler(srv, opts.HTTP...))
	// As any server should: a client that sends half a header, or keeps
	// an idle connection open, does not hold it for ever.
	ts.Config.ReadHeaderTimeout, ts.Config.IdleTimeout = 10*time.Second, 2*time.Minute
	ts.Start()
	tb.Cleanup(ts.Close)
	// Cleanups run last-in first-out: watches end first, so that Close
	// does not wait for streams no client will close.
	tb.Cleanup(srv.CloseWatches)
	env := &Environment{Server: srv, Config: rest.Config{Host: ts.URL}}
	env.Kubeconfig = filepath.Join(tb.TempDir(), "kubeconfig")
	if err := WriteKubeconfig(env.Kubeconfig, ts.URL); err != nil {
		tb.Fatalf("envtest: writing the kubeconfig: %v", err)
	}
	if len(opts.CRDDirectoryPaths) > 0 {
		env.InstallCRDs(tb, opts.CRDDirectoryPaths...)
	}
	return env
}

// InstallCRDs applies the CustomResourceDefinitions in the files and
// directories paths (a directory's .yaml, .yml and .json files), creating
// or updating each, and returns them as stored, established: from then
// on the server serves their kinds, in process and over HTTP. A file that
// does not read, or a definition the server refuses (with the real
// server's message), fails the test.
func (env *Environment) InstallCRDs(tb testing.TB, paths ...string) []*apiextensions.CustomResourceDefinition {
	tb.Helper()
	crds, err := apiextensions.ReadFiles(paths...)
	if err != nil {
		tb.Fatalf("envtest: reading CustomResourceDefinitions: %v", err)
	}
	out, err := apiextensions.Apply(context.Background(), env.Server, crds...)
	if err != nil {
		tb.Fatalf("envtest: applying CustomResourceDefinitions: %v", err)
	}
	return out
}

// WriteKubeconfig writes to path a kubeconfig whose current context is
// the server at host, namespace "default", without credentials (the
// server has no authentication): what [Start] writes, for a server
// served another way (package explore gives each controller a front of
// its own).
func WriteKubeconfig(path, host string) error {
	return os.WriteFile(path, []byte(kubeconfig(host)), 0o600)
}

// kubeconfig is a kubeconfig for the server at host, without
// credentials.
func kubeconfig(host string) string {
	return "apiVersion: v1\nkind: Config\n" +
		"clusters:\n- name: envtest\n  cluster: {server: " + host + "}\n" +
		"users:\n- name: envtest\n  user: {}\n" +
		"contexts:\n- name: envtest\n  context: {cluster: envtest, user: envtest, namespace: default}\n" +
		"current-context: envtest\n"
}
