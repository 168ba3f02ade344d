// The third part of the guided tour: what the two stories kitchensync
// is built from get wrong, one Example per point. The chapters' code and
// prose live in package chapters (examples/tour/chapters).
//
//	go test -run Example_step -v .
package kitchensync_test

import (
	"os"

	"github.com/kitchensync/kitchensync/examples/tour/chapters"
)

// Chapter 24: 餐厅: the DeltaFIFO is history: informers queue in order ([chapters.TheDeltaFIFOIsHistory]).
// With its prose and code: go run ./examples/tour -step 24.
func Example_step24_theDeltaFIFOIsHistory() {
	chapters.TheDeltaFIFOIsHistory(os.Stdout)
	// Output:
	// DeltaFIFO, the story's (informers until client-go 1.33), popped:
	//   table-1: Added (rv 2), Updated (rv 4), Replaced (rv 4)
	//   table-2: Added (rv 3), Replaced (rv 3)
	//   table-3: Replaced (rv 5)
	// RealFIFO with atomic events (client-go 1.36 on; informer.QueueAtomic), popped:
	//   table-1: Added (rv 2)
	//   table-2: Added (rv 3)
	//   table-1: Updated (rv 4)
	//   ReplacedAll: 3 orders at resourceVersion 5, in one step
}

// Chapter 25: 餐厅: status is not spec: no DeepEqual of the two ([chapters.DeepEqualOfStatusAndSpec]).
// With its prose and code: go run ./examples/tour -step 25.
func Example_step25_deepEqualOfStatusAndSpec() {
	chapters.DeepEqualOfStatusAndSpec(os.Stdout)
	// Output:
	// DeepEqual(an OrderStatus, an OrderSpec): false
	// DeepEqual([]string(nil), []string{}):    false
	// a chef done when DeepEqual(status, spec): 10 status writes in 11 reconciles
	// a chef done when observedGeneration == generation: 1 status write in 2 reconciles
}

// Chapter 26: 餐厅: a shared informer shares; it does not partition ([chapters.ASharedInformerDoesNotPartition]).
// With its prose and code: go run ./examples/tour -step 26.
func Example_step26_aSharedInformerDoesNotPartition() {
	chapters.ASharedInformerDoesNotPartition(os.Stdout)
	// Output:
	// the chef's and the maître d's informer are one: true
	// each heard of every order: chef 6, maître d' 6, of 6
	// the server served 1 LIST and 1 WATCH
	// an informer with the field selector spec.section=vip caches [table-1 table-3 table-6]
	// an informer with the field selector spec.section=main caches [table-2 table-4 table-5]
}

// Chapter 27: 餐厅: an update is an event; a rolling update is a choice ([chapters.AnUpdateIsNotARollingUpdate]).
// With its prose and code: go run ./examples/tour -step 27.
func Example_step27_anUpdateIsNotARollingUpdate() {
	chapters.AnUpdateIsNotARollingUpdate(os.Stdout)
	// Output:
	// generation 1: table-7-0-g1 seafood-pasta[], table-7-1-g1 beef-wellington[]
	// generation 2, truffle on the pasta: table-7-0-g1 seafood-pasta[black-truffle], table-7-1-g1 beef-wellington[]
	// generation 3, salmon for the Wellington: table-7-0-g1 seafood-pasta[black-truffle], table-7-1-g3 grilled-salmon[]
	// the pasta's cook is the same throughout (same uid): true
}

// Chapter 28: 餐厅: ListAndWatch is one list, one stream, one cache ([chapters.ListAndWatchIsNotDoubleBuffered]).
// With its prose and code: go run ./examples/tour -step 28.
func Example_step28_listAndWatchIsNotDoubleBuffered() {
	chapters.ListAndWatchIsNotDoubleBuffered(os.Stdout)
	// Output:
	// LIST: 2 orders at rv 3
	// meanwhile table-3 is created, at rv 4
	// WATCH from rv 3
	// the watch brings table-3; the one cache holds [dinner/table-1 dinner/table-2 dinner/table-3]
}

// Chapter 29: 餐厅: a lister takes label selectors ([chapters.ListersTakeLabelSelectors]).
// With its prose and code: go run ./examples/tour -step 29.
func Example_step29_listersTakeLabelSelectors() {
	chapters.ListersTakeLabelSelectors(os.Stdout)
	// Output:
	// lister, label selector "spec.section=vip": []
	// lister, label selector "section=vip":      [table-1 table-3]
	// index "section", value "vip":             [table-1 table-3]
	// informer listing with field selector:     [table-1 table-3] cached, of 3
}

// Chapter 30: 餐厅: custom resources live under /apis ([chapters.CustomResourcesLiveUnderApis]).
// With its prose and code: go run ./examples/tour -step 30.
func Example_step30_customResourcesLiveUnderApis() {
	chapters.CustomResourcesLiveUnderApis(os.Stdout)
	// Output:
	// GET /api/v1/orders: 404 page not found (plain text)
	// GET /apis/menu.example.com/v1/orders: 200, 1 order
	// GET /apis/menu.example.com/v1/namespaces/dinner/orders: 200, 1 order
	// a fresh desk, list at resourceVersion 10245: Timeout: Too large resource version: 10245, current: 2
	// a desk at resourceVersion 20001, watch from 10245: ERROR too old resource version: 10245 (20001)
}

// Chapter 31: 餐厅: 410 Expired is about history, not ingredients ([chapters.ExpiredIsAboutHistory]).
// With its prose and code: go run ./examples/tour -step 31.
func Example_step31_expiredIsAboutHistory() {
	chapters.ExpiredIsAboutHistory(os.Stdout)
	// Output:
	// watch from resourceVersion 2 after compaction: ERROR
	//   too old resource version: 2 (3)
	//   IsExpired: true
	// what an informer does next: list again, at resourceVersion 3, 2 orders
}

// Chapter 32: 餐厅: a work queue has no buffer size ([chapters.QueuesHaveNoBufferSize]).
// With its prose and code: go run ./examples/tour -step 32.
func Example_step32_queuesHaveNoBufferSize() {
	chapters.QueuesHaveNoBufferSize(os.Stdout)
	// Output:
	// 100000 different tickets added, none blocked; on the rail: 100000
	// table-7 updated 1000 times; tickets on the rail: 1
	// updated while the chef works on it; on the rail: 0 (it comes back after Done)
	// after Done: 1
}

// Chapter 33: 餐厅: a watch timeout is not a report interval ([chapters.AWatchTimeoutIsNotAReportInterval]).
// With its prose and code: go run ./examples/tour -step 33.
func Example_step33_aWatchTimeoutIsNotAReportInterval() {
	chapters.AWatchTimeoutIsNotAReportInterval(os.Stdout)
	// Output:
	// the runner saw table-1
	// the runner saw table-2
	// the runner saw table-3
	// the runner saw table-4
	// lists: 1 watches: 4
}

// Chapter 34: 餐厅: the story's Dish YAML is refused ([chapters.TheStoryDishYAML]).
// With its prose and code: go run ./examples/tour -step 34.
func Example_step34_theStoryDishYAML() {
	chapters.TheStoryDishYAML(os.Stdout)
	// Output:
	// the story's Dish: POST /apis/menu.example.com/v1/dishes: 400 Bad Request: Dish in version "v1" cannot be handled as a Dish: spec.ingredients: Invalid value: "array": must be of type object; write it as name: value pairs (a map), not a list or a single value (the value ends at line 1, column 146 of the body)
	// ingredients as a map: POST /apis/menu.example.com/v1/dishes: 201 Created
}

// Chapter 35: 蛋糕店: the front desk does not poll ([chapters.TheFrontDeskDoesNotPoll]).
// With its prose and code: go run ./examples/tour -step 35.
func Example_step35_theFrontDeskDoesNotPoll() {
	chapters.TheFrontDeskDoesNotPoll(os.Stdout)
	// Output:
	// after 3 resyncs: lists 1 watches 1 gets 0
}

// Chapter 36: 蛋糕店: an error overrides RequeueAfter ([chapters.AnErrorOverridesRequeueAfter]).
// With its prose and code: go run ./examples/tour -step 36.
func Example_step36_anErrorOverridesRequeueAfter() {
	chapters.AnErrorOverridesRequeueAfter(os.Stdout)
	// Output:
	// asked to come back in 5m0s; came back within a second: true
	// reconcile_total: success 1, error 1, requeue_after 0
}

// Chapter 37: 蛋糕店: the alert is a p90, not the average ([chapters.TheAlertIsP90NotTheAverage]).
// With its prose and code: go run ./examples/tour -step 37.
func Example_step37_theAlertIsP90NotTheAverage() {
	chapters.TheAlertIsP90NotTheAverage(os.Stdout)
	// Output:
	// average 6.8s, p90 27.5s (histogram_quantile), threshold 10s
	// exported: controller_runtime_reconcile_errors_total
	// exported: controller_runtime_reconcile_panics_total
	// exported: controller_runtime_reconcile_time_seconds
	// exported: controller_runtime_reconcile_total
}

// Chapter 38: 蛋糕店: Cluster API makes clusters; placing work is another job ([chapters.ClusterAPIMakesClusters]).
// With its prose and code: go run ./examples/tour -step 38.
func Example_step38_clusterAPIMakesClusters() {
	chapters.ClusterAPIMakesClusters(os.Stdout)
	// Output:
	// the north front desk sees: cake-1 (rv 2) cake-3 (rv 3)
	// the south front desk sees: cake-2 (rv 2)
}

// Chapter 39: 蛋糕店: the story's YAML, applied ([chapters.TheCakeStoryYAML]).
// With its prose and code: go run ./examples/tour -step 39.
func Example_step39_theCakeStoryYAML() {
	chapters.TheCakeStoryYAML(os.Stdout)
	// Output:
	// §1.1 the order form: no apiVersion, no kind: not an API object (kubectl: error validating data: [apiVersion not set, kind not set])
	//   to make it one, add apiVersion: bakery.example.com/v1 and kind: Cake at the top, and the fields under spec:
	// §3.2 the autoscaler: GET /apis/autoscaling/v2: 404, the server has no autoscaling/v2 (kubectl --validate=false: no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v2"; ensure CRDs are installed first)
	// §7.1 the wedding cake: GET /apis/bakery/v1: 404, the server has no bakery/v1 (kubectl --validate=false: no matches for kind "Cake" in version "bakery/v1"; ensure CRDs are installed first)
	// §5.2 the alert: no apiVersion, no kind: not an API object (kubectl: error validating data: [apiVersion not set, kind not set])
	//   to make it one, add apiVersion: monitoring.coreos.com/v1 and kind: PrometheusRule, and the groups under spec:
	// the wedding cake in group bakery.example.com: POST /apis/bakery.example.com/v1/namespaces/shop/cakes: 422 Unprocessable Entity: Cake.bakery.example.com "wedding-cake" is invalid: [spec.flavor: Required value: what kind of cake?, spec.size: Invalid value: 0: must be between 4 and 16 inches]
}

// Chapter 40: 蛋糕店: the form's fields have Kubernetes names ([chapters.TheFormsFieldsHaveKubernetesNames]).
// With its prose and code: go run ./examples/tour -step 40.
func Example_step40_theFormsFieldsHaveKubernetesNames() {
	chapters.TheFormsFieldsHaveKubernetesNames(os.Stdout)
	// Output:
	// the story's fields: POST /apis/bakery.example.com/v1/namespaces/shop/cakes: 400 Bad Request: Cake in version "v1" cannot be handled as a Cake: strict decoding error: unknown field "spec.annotations", unknown field "spec.kind", unknown field "spec.schedule"
	// data in an annotation: POST /apis/bakery.example.com/v1/namespaces/shop/cakes: 400 Bad Request: Cake in version "v1" cannot be handled as a Cake: metadata.annotations: Invalid value: "array": must be of type string; write it as text, in quotes if it looks like a number or true/false (the value ends at line 1, column 92 of the body)
	// the shop's fields: POST /apis/bakery.example.com/v1/namespaces/shop/cakes: 201 Created
}

// Chapter 41: both: the rail's limit on new tickets is a choice ([chapters.TheRailLimitsNewTicketsByChoice]).
// With its prose and code: go run ./examples/tour -step 41.
func Example_step41_theRailLimitsNewTicketsByChoice() {
	chapters.TheRailLimitsNewTicketsByChoice(os.Stdout)
	// Output:
	// RateLimitingQueue, 5 × Add:           ready at once 5
	// then 5 × AddRateLimited:              ready at once 1 (the others wait 6s, 12s, ...)
	// kitchen.TicketRail, 10 a minute, 5 × Add: ready at once 1
}

// Chapter 42: both: two waiters apply one order: who owns the field? ([chapters.WhoOwnsTheField]).
// With its prose and code: go run ./examples/tour -step 42.
func Example_step42_whoOwnsTheField() {
	chapters.WhoOwnsTheField(os.Stdout)
	// Output:
	// alice (Apply) owns {"f:spec":{"f:items":{},"f:section":{},"f:table":{}}}
	// bob (Apply) owns {"f:spec":{"f:priority":{}}}
	// bob moves the table: Apply failed with 1 conflict: conflict with "alice": .spec.section
	// bob, forced: section terrace
	// alice (Apply) owns {"f:spec":{"f:items":{},"f:table":{}}}
	// bob (Apply) owns {"f:spec":{"f:priority":{},"f:section":{}}}
	// alice drops the section from her order: section terrace
}
