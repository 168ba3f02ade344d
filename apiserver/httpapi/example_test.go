package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Serve an API server over HTTP and ask it for an object that does not
// exist: the answer is the Status a real Kubernetes API server sends.
func ExampleNewHandler() {
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	ts := httptest.NewServer(httpapi.NewHandler(srv))
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/apis/test.kitchensync.io/v1/namespaces/default/widgets/w1")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var status meta.Status
	if err := json.NewDecoder(resp.Body).Decode(&status); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"))
	fmt.Println(status.Kind, status.Status, status.Code, status.Reason)
	fmt.Println(status.Message)
	// Output:
	// 404 application/json
	// Status Failure 404 NotFound
	// widgets.test.kitchensync.io "w1" not found
}

// Watch over HTTP: one JSON event per line, as each change happens. A
// watch from resourceVersion "0" starts with the current state.
func Example_watch() {
	ctx := context.Background()
	srv := apiserver.NewServer(apiservertest.NewScheme(), apiserver.Options{})
	widgets := client.New[*apiservertest.Widget](srv).Namespace("default")
	_, _ = widgets.Create(ctx, apiservertest.NewWidget("default", "w1"), meta.CreateOptions{})

	ts := httptest.NewServer(httpapi.NewHandler(srv))
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/apis/test.kitchensync.io/v1/namespaces/default/widgets?watch=true&resourceVersion=0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	events := json.NewDecoder(resp.Body)
	print := func() {
		var ev struct {
			Type   string
			Object apiservertest.Widget
		}
		if err := events.Decode(&ev); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(ev.Type, ev.Object.Name, "at resourceVersion", ev.Object.ResourceVersion)
	}
	print() // the current state

	_, _ = widgets.Create(ctx, apiservertest.NewWidget("default", "w2"), meta.CreateOptions{})
	print()
	_ = widgets.Delete(ctx, "w1", meta.DeleteOptions{})
	print()
	// Output:
	// ADDED w1 at resourceVersion 2
	// ADDED w2 at resourceVersion 3
	// DELETED w1 at resourceVersion 4
}
