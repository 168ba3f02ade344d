package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/builtin"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// One stored Event, served in two versions: written in core/v1 (as
// kitchensync's reconcile/record and kubectl events know it), read in
// events.k8s.io/v1 (as client-go's tools/events knows it), where message
// is note and involvedObject is regarding.
func Example_eventsInTwoVersions() {
	scheme := meta.NewScheme()
	if err := builtin.Register(scheme); err != nil { // serves Events in both versions
		fmt.Println(err)
		return
	}
	srv := apiserver.NewServer(scheme, apiserver.Options{})
	ts := httptest.NewServer(httpapi.NewHandler(srv))
	defer ts.Close()

	created, err := srv.Resource(builtin.EventsResource).Namespace("dinner").Create(context.Background(), &builtin.Event{
		ObjectMeta:     meta.ObjectMeta{Name: "table-7.1"},
		InvolvedObject: builtin.ObjectReference{Kind: "Order", Namespace: "dinner", Name: "table-7"},
		Reason:         "Cooking", Message: "2 cooks at work", Type: builtin.EventTypeNormal,
	}, meta.CreateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := http.Get(ts.URL + "/apis/events.k8s.io/v1/namespaces/dinner/events/table-7.1")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var e builtin.EventsV1Event
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.APIVersion, e.Kind, e.Name)
	fmt.Println("same object:", e.UID == created.GetObjectMeta().UID &&
		e.ResourceVersion == created.GetObjectMeta().ResourceVersion)
	fmt.Printf("note %q, regarding %s/%s\n", e.Note, e.Regarding.Kind, e.Regarding.Name)
	// Output:
	// events.k8s.io/v1 Event table-7.1
	// same object: true
	// note "2 cooks at work", regarding Order/table-7
}
