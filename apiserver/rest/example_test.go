package rest_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/rest"
)

// A client over HTTP answers as the server in process does: the same
// objects, and the same typed errors.
func Example() {
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	ts := httptest.NewServer(httpapi.NewHandler(srv))
	defer ts.Close()

	c, err := rest.New(&rest.Config{Host: ts.URL}, apiservertest.NewScheme())
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	widgets := c.Resource(apiservertest.WidgetsResource).Namespace("kitchen")

	w := apiservertest.NewWidget("kitchen", "mixer")
	created, err := widgets.Create(ctx, w, meta.CreateOptions{})
	fmt.Println("created", created.GetObjectMeta().Name, "at resourceVersion", created.GetObjectMeta().ResourceVersion, err)

	_, err = widgets.Create(ctx, w, meta.CreateOptions{})
	fmt.Println("again:", err, "| IsAlreadyExists:", meta.IsAlreadyExists(err))

	stale := created.(*apiservertest.Widget)
	stale.Spec.Size = 2
	if _, err := widgets.Update(ctx, stale, meta.UpdateOptions{}); err != nil {
		panic(err)
	}
	stale.Spec.Size = 3
	_, err = widgets.Update(ctx, stale, meta.UpdateOptions{})
	fmt.Println("stale update: IsConflict:", meta.IsConflict(err))

	list, _ := widgets.List(ctx, meta.ListOptions{})
	fmt.Println("list:", len(list.Items), "item(s) at resourceVersion", list.ResourceVersion)
	// Output:
	// created mixer at resourceVersion 2 <nil>
	// again: widgets.test.kitchensync.io "mixer" already exists | IsAlreadyExists: true
	// stale update: IsConflict: true
	// list: 1 item(s) at resourceVersion 3
}

// LoadKubeconfig reads a kubeconfig file; Config picks a context. A file
// that names what it does not define is refused, naming the field.
func ExampleLoadKubeconfig() {
	k, err := rest.LoadKubeconfig("testdata/bad-cluster-ref.yaml")
	if err != nil {
		panic(err)
	}
	_, err = k.Config("")
	fmt.Println(err)
	// Output:
	// kubeconfig testdata/bad-cluster-ref.yaml: contexts["dev"].context.cluster: cluster "staging" not found
}
