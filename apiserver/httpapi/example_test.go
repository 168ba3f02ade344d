package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
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
	var status apiserver.Status
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
