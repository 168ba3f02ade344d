// Package meta is the vocabulary that every part of kitchensync speaks:
// objects and their metadata, the names of kinds and resources, the
// options a request carries, the errors an API answers with, selectors,
// and the rules for names and labels. It is the ground floor: it imports
// only the standard library, and everything else (the cache, the informer,
// the workqueue, the reconciler, the API server and its clients) stands
// on it, as client-go and the API server both stand on Kubernetes'
// apimachinery (metav1, runtime, labels, fields, api/errors).
//
// In the kitchen, this is the language of the order book: what an order
// slip looks like, how a dish is named, what "sold out" and "someone
// changed this order while you were reading it" are called. The waiter,
// the runner, the chef and the front desk all use the same words, so that
// none of them needs to know how the others work.
//
// # Objects
//
// An [Object] is a Go struct that embeds [TypeMeta] (apiVersion and kind)
// and [ObjectMeta] (name, namespace, uid, resourceVersion, generation,
// labels, finalizers, owner references, managedFields), with the JSON
// field names Kubernetes uses. By convention the desired state lives in a
// field named Spec and the observed state in a field named Status:
//
//	type Order struct {
//		meta.TypeMeta   `json:",inline"`
//		meta.ObjectMeta `json:"metadata"`
//		Spec   OrderSpec   `json:"spec"`
//		Status OrderStatus `json:"status,omitzero"`
//	}
//
// An object without a Go type of its own is an [Unstructured]: its
// apiVersion, kind and metadata, and the rest as decoded JSON, like
// apimachinery's unstructured.Unstructured. The kinds that a
// CustomResourceDefinition defines are served this way (package
// apiserver/apiextensions), and a dynamic client reads and writes any
// kind so.
//
// A kind writes one method itself, DeepCopyObject (Kubernetes generates
// it); [DeepCopy] gives back a copy of the same Go type. An
// [OwnerReference] ([NewControllerRef]) points from a child to the
// object it belongs to, and a [Condition] ([SetStatusCondition]) reports
// one aspect of an object's status.
//
// # Kinds and resources
//
// A kind is named by a [GroupVersionKind] ("menu.example.com/v1, Kind=Order")
// and served as a resource, a [GroupVersionResource] ("orders"). A
// [Scheme] maps each Go type to its kind, registered once as a
// [KindInfo]: names, namespaced or not, how to make an empty one, its
// selectable fields and its validation, like Kubernetes' runtime.Scheme
// together with a CustomResourceDefinition. A kind may be served in a
// second version too, as a [ServedVersion].
//
// # Requests
//
// Every call to an API takes options named as metav1 names them:
// [GetOptions], [ListOptions] (selectors, resourceVersion, limit and
// continue, watch bookmarks), [CreateOptions], [UpdateOptions],
// [PatchOptions] with a [PatchType], [DeleteOptions] with a
// [DeletionPropagation]. A list comes back as a [List] with its
// [ListMeta]; a watch as a [WatchInterface] delivering [Event]s.
//
// # Errors
//
// Every failure is a [*StatusError] holding a Kubernetes-shaped [Status]
// (code, reason, message, details), worded as the real server words it,
// e.g. `orders.menu.example.com "t1" not found`. Test an error with a
// predicate such as [IsNotFound], [IsConflict] or [IsExpired], never by
// its message; the predicates see through wrapping and read a Status
// that came over the wire as well as one made in process. [FieldErrors]
// builds the 422 Invalid whose causes each name a field.
//
// # Selectors
//
// [ParseLabelSelector] reads Kubernetes' label selector syntax
// ("app=web,tier in (front,back),!canary"); a nil selector matches
// everything. [ParseFieldSelector] reads "field=value" terms with =, ==
// and !=; each kind supports metadata.name, metadata.namespace and the
// fields it registers ([KindInfo.ValidateFieldSelector]). A malformed
// selector or an unknown field is a 400 BadRequest that says what is wrong.
//
// # Validation
//
// Names, labels, annotations, finalizers and owner references follow
// Kubernetes' rules ([ValidateName], [ValidateLabels], [IsDNS1123Label]
// and the rest), with the real server's messages, so that a learner who
// trips on one here trips on the same one in a cluster.
//
// # Where to find what
//
// object.go, unstructured.go and conditions.go hold the object model, gvk.go the names,
// kind_info.go, scheme.go, served_version.go and schema.go the kinds;
// requests.go the options and watch events; errors.go and status.go the
// errors; selectors.go and validation.go the rules.
package meta
