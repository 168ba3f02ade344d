package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
	cake "github.com/kitchensync/kitchensync/examples/build/step8"
)

// The baker, given only a kubeconfig, bakes the cakes of a server whose
// kinds come from crds.yaml, as a cluster's would.
func TestBakesOverHTTP(t *testing.T) {
	env := envtest.Start(t, envtest.Options{})
	env.InstallCRDs(t, "../crds.yaml")
	lines := make(chan string, 100)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	done := make(chan error)
	go func() { done <- run(ctx, []string{"-kubeconfig", env.Kubeconfig}, lineWriter(lines), &bytes.Buffer{}) }()

	scheme := meta.NewScheme()
	if err := cake.Register(scheme); err != nil {
		t.Fatal(err)
	}
	api, err := rest.New(&env.Config, scheme)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.New[*cake.Cake](api).Namespace("default").Create(ctx, cake.NewCake("default", "birthday", "chocolate", ""), meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for line := range lines {
		if line == "baker: default/birthday reconciled" {
			break
		}
	}
	box, err := client.New[*cake.Box](api).Namespace("default").Get(ctx, "birthday", meta.GetOptions{})
	if err != nil || box.OwnerReferences[0].Name != "birthday" {
		t.Errorf("the box: %v, %v", box, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}

// A command line without a kubeconfig is refused, and says what is missing.
func TestBadCommandLine(t *testing.T) {
	for _, args := range [][]string{nil, {"-kubeconfig"}, {"-kubeconfig", "x", "extra"}, {"-cakes", "3"}} {
		var out, errOut bytes.Buffer
		err := run(t.Context(), args, &out, &errOut)
		if err == nil {
			t.Errorf("run %q: no error", args)
		}
		if out.Len() != 0 {
			t.Errorf("run %q printed %q", args, out.String())
		}
	}
	var errOut bytes.Buffer
	if err := run(t.Context(), []string{"-kubeconfig", "/no/such/file"}, &bytes.Buffer{}, &errOut); err == nil || !strings.Contains(err.Error(), "/no/such/file") {
		t.Errorf("a kubeconfig that is not there: %v", err)
	}
}

// lineWriter sends each line written to it on lines.
type lineWriter chan string

func (l lineWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimSuffix(string(p), "\n"), "\n") {
		l <- line
	}
	return len(p), nil
}
