package bakery

import (
	"bytes"
	"context"
	_ "embed" // the order form's CRD
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/apiextensions"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// cakeCRD is the story's order form as a CustomResourceDefinition,
// corrected (the file says what was wrong with the story's, and why).
//
//go:embed crd/cakes.bakery.example.com.yaml
var cakeCRD []byte

// CakeCRD returns the order form as a CustomResourceDefinition: the
// story's, corrected, from crd/cakes.bakery.example.com.yaml. Applied
// to any server that serves definitions (kitchensync's with
// apiextensions.Install, or a real cluster), it makes the kind Cake,
// with the same rules the [Kinds] carry as Validate hooks, written as a
// schema.
func CakeCRD() (*apiextensions.CustomResourceDefinition, error) {
	crds, err := apiextensions.Decode(cakeCRD)
	if err != nil || len(crds) != 1 {
		return nil, fmt.Errorf("bakery: the order form's CRD: %v (%d definitions)", err, len(crds))
	}
	return crds[0], nil
}

// applyOrderForm opens the order-form scene on a server that knows no
// kinds yet, as a cluster does: the manager applies the order form's CRD
// as kubectl apply would, the server establishes it and its kind appears
// in discovery; then the schema refuses the bad form with the real
// server's messages, and takes the birthday cake, filling in a default.
func applyOrderForm(ctx context.Context, e *env, r *Report, bad *Cake) error {
	srv := apiserver.NewServer(meta.NewScheme(), apiserver.Options{})
	if _, err := apiextensions.Install(srv); err != nil {
		return err
	}
	api := httpapi.NewHandler(srv)
	crd, err := CakeCRD()
	if err != nil {
		return err
	}
	const key = "cakes.bakery.example.com"
	code, _ := send(ctx, api, http.MethodPost, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
	e.j.Say("manager", key, "applied", "kubectl apply -f crd/%s.yaml (the story's order form, corrected): HTTP %d", key, code)
	if code != http.StatusCreated {
		return fmt.Errorf("order-form: applying the CRD: HTTP %d", code)
	}
	_, body := send(ctx, api, http.MethodGet, "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"+key, nil)
	var stored apiextensions.CustomResourceDefinition
	if err := json.Unmarshal(body, &stored); err != nil {
		return err
	}
	var conds []string
	for _, c := range stored.Status.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s (%s)", c.Type, c.Status, c.Reason))
	}
	e.j.Say("api-server", key, "established", "%s", strings.Join(conds, ", "))
	_, body = send(ctx, api, http.MethodGet, "/apis/"+Group+"/"+Version, nil)
	var list struct{ Resources []struct{ Name, Kind string } }
	_ = json.Unmarshal(body, &list)
	for _, res := range list.Resources {
		if !strings.Contains(res.Name, "/") { // subresources (cakes/status) aside
			e.j.Say("api-server", key, "discovery", "discovery: %s/%s now serves %s (kind %s)", Group, Version, res.Name, res.Kind)
		}
	}
	if !stored.IsTrue(apiextensions.Established) || len(list.Resources) == 0 {
		return fmt.Errorf("order-form: the CRD is not established: %v", conds)
	}
	r.fact("the story's CRD, corrected, applied: %s %s, kind Cake served", key, strings.Join(conds, ", "))
	return orderOnForm(ctx, e, api, key, bad)
}

// orderOnForm sends the bad form and the birthday cake to the kind the
// CRD made.
func orderOnForm(ctx context.Context, e *env, api http.Handler, key string, bad *Cake) error {
	path := fmt.Sprintf("/apis/%s/%s/namespaces/%s/%s", Group, Version, bad.Namespace, CakeResource.Resource)
	bad = bad.DeepCopyObject().(*Cake)
	bad.TypeMeta = meta.TypeMeta{APIVersion: Group + "/" + Version, Kind: "Cake"}
	code, body := send(ctx, api, http.MethodPost, path, bad)
	var st meta.Status
	if err := json.Unmarshal(body, &st); err != nil || code != http.StatusUnprocessableEntity || st.Details == nil {
		return fmt.Errorf("order-form: the schema answered %d %s, want 422", code, body)
	}
	e.j.Say("kubectl", key, "refused", "kubectl create -f %s.yaml: HTTP %d, the schema refuses it:", bad.Name, code)
	for _, c := range st.Details.Causes {
		e.j.Say("api-server", key, "cause", "  %s: %s", c.Field, c.Message)
	}
	good := &Cake{TypeMeta: bad.TypeMeta, ObjectMeta: meta.ObjectMeta{Namespace: bad.Namespace, Name: "birthday-alice"}, Spec: birthdayCake()}
	code, body = send(ctx, api, http.MethodPost, path, good)
	var made Cake
	if err := json.Unmarshal(body, &made); err != nil || code != http.StatusCreated {
		return fmt.Errorf("order-form: the birthday cake on the CRD: %d %s", code, body)
	}
	e.j.Say("kubectl", key, "created", "kubectl create -f birthday-alice.yaml: HTTP %d, the schema's default filled in: decorationComplexity %q",
		code, made.Spec.DecorationComplexity)
	return nil
}

// send makes one request to api, as kubectl would over the network, and
// returns the answer's status code and body.
func send(ctx context.Context, api http.Handler, method, path string, obj any) (int, []byte) {
	var body []byte
	if obj != nil {
		body, _ = json.Marshal(obj)
	}
	req, err := http.NewRequestWithContext(ctx, method, path, bytes.NewReader(body))
	if err != nil {
		return 0, nil
	}
	req.Header.Set("Content-Type", "application/json")
	resp := httptest.NewRecorder()
	api.ServeHTTP(resp, req)
	return resp.Code, resp.Body.Bytes()
}
