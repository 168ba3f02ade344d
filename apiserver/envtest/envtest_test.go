package envtest_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
)

// TestStart reaches the server over HTTP with the returned Config and
// with the kubeconfig, and sees what was written in process.
func TestStart(t *testing.T) {
	env := envtest.Start(t, envtest.Options{Kinds: []meta.KindInfo{apiservertest.WidgetKind()}})
	ctx := context.Background()
	w := apiservertest.NewWidget("default", "w")
	w.Spec.Color = "red"
	if _, err := client.New[*apiservertest.Widget](env.Server).Create(ctx, w, meta.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]func() (rest.Config, error){
		"Config": func() (rest.Config, error) { return env.Config, nil },
		"Kubeconfig": func() (rest.Config, error) {
			k, err := rest.LoadKubeconfig(env.Kubeconfig)
			if err != nil {
				return rest.Config{}, err
			}
			cfg, err := k.Config("")
			if err != nil {
				return rest.Config{}, err
			}
			return *cfg, nil
		},
	} {
		c, err := cfg()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		client, err := rest.New(&c, env.Server.Scheme())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := client.Resource(apiservertest.WidgetsResource).Namespace("default").Get(ctx, "w", meta.GetOptions{})
		if err != nil || got.(*apiservertest.Widget).Spec.Color != "red" {
			t.Errorf("%s: Get = %v, %v", name, got, err)
		}
	}
}

// TestCRDDirectoryPaths installs the restaurant's generated definitions
// (examples/manifests/crds) and uses one of their kinds over HTTP.
func TestCRDDirectoryPaths(t *testing.T) {
	env := envtest.Start(t, envtest.Options{CRDDirectoryPaths: []string{"../../examples/manifests/crds"}})
	for _, res := range []string{"orders", "dishes", "cooks"} {
		gvr := meta.GroupVersionResource{Group: "menu.example.com", Version: "v1", Resource: res}
		if _, ok := env.Server.Scheme().KindForResource(gvr); !ok {
			t.Errorf("%s not served", res)
		}
	}
	resp, err := http.Post(env.Config.Host+"/apis/menu.example.com/v1/namespaces/default/orders", "application/json",
		strings.NewReader(`{"apiVersion":"menu.example.com/v1","kind":"Order","metadata":{"name":"o1"},"spec":{"section":"vip","table":4,"items":[{"dish":"soup","quantity":1}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("create an Order: %s %s", resp.Status, body)
	}
}
