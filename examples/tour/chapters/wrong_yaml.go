package chapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/httpapi"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/kitchen"
)

// The restaurant story's Dish, exactly as 餐厅 §4 writes it.
const storyDish = `apiVersion: menu.example.com/v1
kind: Dish
metadata:
  name: beef-wellington
spec:
  ingredients:
    - filet-mignon: 500g
    - puff-pastry: 200g
  cookingTime: 40m
  difficulty: 5
`

// 餐厅 §4 defines its menu with the Dish above, and kubectl apply of it
// is refused with 400 Bad Request. The Dish kind declares its
// ingredients as a map, one quantity per ingredient — like a Pod's
// resources.requests — and the story writes a list of one-entry maps.
// The front desk decodes the body into the kind's type, as a real API
// server checks it against the CRD's schema, and refuses a shape that
// does not fit in the schema's words — the field, the type sent, the
// type wanted, and how to write it; nothing is stored. (A real cluster,
// with a schema saying "object", answers 422 Invalid with
// `spec.ingredients: Invalid value: "array": must be of type object`;
// this desk, decoding into a Go type, answers 400 Bad Request.)
//
// kitchensync keeps the map rather than accept the story's shape: a map
// cannot list filet-mignon twice, and a server that rewrote one shape
// into another would hand back an object that differs from what was
// applied. Written as a map, the same dish is created.
func TheStoryDishYAML(w io.Writer) {
	front := httpapi.NewHandler(apiserver.NewServer(kitchen.NewScheme(), apiserver.Options{}))
	fmt.Fprintln(w, "the story's Dish:", apply(front, "", storyDish))
	fixed := strings.Replace(storyDish, "    - filet-mignon: 500g\n    - puff-pastry: 200g\n",
		"    filet-mignon: 500g\n    puff-pastry: 200g\n", 1)
	fmt.Fprintln(w, "ingredients as a map:", apply(front, "", fixed))
}

// The cake story's manifests, as 蛋糕店 §1.1, §3.2, §7.1 and §5.2 write them.
var storyCakeManifests = []struct{ what, add, yaml string }{
	{"§1.1 the order form", "apiVersion: bakery.example.com/v1 and kind: Cake at the top, and the fields under spec:", "蛋糕类型: 双层巧克力\n尺寸: 8英寸\n装饰要求: 生日快乐糖牌\n取货时间: 2023-08-20 14:00\n特殊说明: 坚果过敏\n"},
	{"§3.2 the autoscaler", "", `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: cake-baker
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: cake-baker
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 70
`},
	{"§7.1 the wedding cake", "", `apiVersion: bakery/v1
kind: Cake
metadata:
  name: wedding-cake
spec:
  layers: 10
  decorationComplexity: extreme
  resources:
    maxOvenTime: 6h
    icingMemory: 2GB
`},
	{"§5.2 the alert", "apiVersion: monitoring.coreos.com/v1 and kind: PrometheusRule, and the groups under spec:", `groups:
- name: cake-operator
  rules:
  - alert: HighReconcileLatency
    expr: histogram_quantile(0.9, sum(rate(controller_runtime_reconcile_duration_seconds_bucket[5m])) by (le)) > 10
`},
}

// The cake story's YAML, applied to the cake shop's front desk (package
// bakery's kinds, group bakery.example.com). None of it is created, each
// for a reason worth knowing.
//
// The order form (§1.1) is a Cake's spec with Chinese keys, and the story
// calls it a CRD: a CustomResourceDefinition is the form's template (the
// kind, its fields and their rules); a filled-in order is a custom
// resource. Without apiVersion and kind it is no API object at all.
// The autoscaler (§3.2) is a real Kubernetes kind, served by a real
// cluster's autoscaling/v2 group; the cake shop's front desk serves only
// its own kinds (its bakers scale through a BakerPool). The wedding cake
// (§7.1) names the group "bakery": a CRD's group must be a domain name
// with a dot, here bakery.example.com. With that fixed, the desk checks
// the spec and names every field it refuses: the story's cake has no
// flavor and no size. (kubectl checks apiVersion and kind before it
// sends anything, with messages of its own, given in brackets. For a
// group the server does not serve, kubectl's own validation stops first,
// against this server, with "error validating data: the server could not
// find the requested resource"; with --validate=false it gets as far as
// the words in brackets.) The alert (§5.2) is
// a Prometheus rules file, not an API object (the Prometheus operator
// wraps it in a PrometheusRule); its metric name is wrong too, see the
// chapter on the p90.
func TheCakeStoryYAML(w io.Writer) {
	front := httpapi.NewHandler(bakery.NewServer())
	for _, m := range storyCakeManifests {
		fmt.Fprintf(w, "%s: %s\n", m.what, apply(front, "shop", m.yaml))
		if m.add != "" {
			fmt.Fprintf(w, "  to make it one, add %s\n", m.add)
		}
	}
	fixed := strings.Replace(storyCakeManifests[2].yaml, "apiVersion: bakery/v1", "apiVersion: bakery.example.com/v1", 1)
	fmt.Fprintf(w, "the wedding cake in group bakery.example.com: %s\n", apply(front, "shop", fixed))
}

// apply creates the object of a YAML manifest through the front desk's
// REST API, as kubectl apply does for a new object: it reads apiVersion
// and kind, finds the resource in the API's discovery, and POSTs the
// object as JSON with strict field validation. It returns what happened,
// in a line.
func apply(front http.Handler, namespace, manifest string) string {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(manifest), &obj); err != nil {
		return "not YAML: " + err.Error()
	}
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if apiVersion == "" || kind == "" {
		return "no apiVersion, no kind: not an API object (kubectl: error validating data: [apiVersion not set, kind not set])"
	}
	base := "/apis/" + apiVersion
	if !strings.Contains(apiVersion, "/") {
		base = "/api/" + apiVersion // the core group: v1
	}
	code, body := call(front, http.MethodGet, base, nil)
	if code != http.StatusOK {
		return fmt.Sprintf("GET %s: %d, the server has no %s (kubectl --validate=false: no matches for kind %q in version %q; ensure CRDs are installed first)",
			base, code, apiVersion, kind, apiVersion)
	}
	var discovery struct {
		Resources []struct {
			Name, Kind string
			Namespaced bool
		}
	}
	json.Unmarshal(body, &discovery)
	for _, r := range discovery.Resources {
		if r.Kind != kind || strings.Contains(r.Name, "/") {
			continue
		}
		path := base + "/" + r.Name
		if r.Namespaced {
			path = base + "/namespaces/" + namespace + "/" + r.Name
		}
		data, _ := json.Marshal(obj)
		code, body := call(front, http.MethodPost, path+"?fieldValidation=Strict", data)
		var status meta.Status
		json.Unmarshal(body, &status)
		if code == http.StatusCreated {
			return fmt.Sprintf("POST %s: %d %s", path, code, http.StatusText(code))
		}
		return fmt.Sprintf("POST %s: %d %s: %s", path, code, http.StatusText(code), status.Message)
	}
	return fmt.Sprintf("%s serves no kind %s", apiVersion, kind)
}

// call makes one request to the front desk and returns the status code
// and the body.
func call(front http.Handler, method, path string, body []byte) (int, []byte) {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Host = "localhost" // the front desk answers loopback names only
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	front.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}
