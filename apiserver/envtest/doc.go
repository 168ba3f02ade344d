// Package envtest starts a kitchensync API server on a loopback port for
// one test: controller-runtime's envtest without the etcd and
// kube-apiserver binaries. A controller written with client-go or
// controller-runtime talks to it over HTTP as to a real cluster.
//
// [Start] registers the test's kinds, serves them with package httpapi,
// writes a kubeconfig, and stops everything through t.Cleanup:
//
//	env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{orderKind}})
//	cfg := &rest.Config{Host: env.Config.Host} // client-go's rest.Config
//	mgr, err := ctrl.NewManager(cfg, ctrl.Options{...})
//
// It serves CustomResourceDefinitions too (package
// apiserver/apiextensions), as a real cluster does: Options.CRDDirectoryPaths
// applies a directory of them before Start returns, as
// controller-runtime's envtest does, and [Environment.InstallCRDs] does
// it later in one call:
//
//	env := envtest.Start(t, envtest.Options{CRDDirectoryPaths: []string{"config/crd/bases"}})
//
// env.Config is this library's [rest.Config] (apiserver/rest), which has
// the fields of client-go's of the same name that reach this server;
// env.Kubeconfig is a file for kubectl or clientcmd. The package imports
// no client-go: compare/ shows a controller-runtime reconciler tested
// with it.
//
// In the kitchen: a practice kitchen with its own front desk, opened for
// one rehearsal and cleaned up after.
package envtest
