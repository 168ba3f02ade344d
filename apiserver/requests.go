package apiserver

import (
	"sync"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Verb names a kind of API request, with the words Kubernetes uses in
// audit logs and RBAC rules.
type Verb string

// The verbs the server counts and can fail. UpdateStatus counts as
// VerbUpdate (it is an update of the status subresource).
const (
	VerbCreate Verb = "create"
	VerbGet    Verb = "get"
	VerbList   Verb = "list"
	VerbWatch  Verb = "watch"
	VerbUpdate Verb = "update"
	VerbPatch  Verb = "patch"
	VerbDelete Verb = "delete"
	// VerbDeleteCollection counts a DeleteCollection once, not once per
	// object it deletes (as kube-apiserver's audit log records it).
	VerbDeleteCollection Verb = "deletecollection"
)

// RequestKey is what [Server.RequestCounts] counts by.
type RequestKey struct {
	// Verb is the kind of request.
	Verb Verb
	// Resource is the resource it was made on, registered or not.
	Resource meta.GroupResource
}

// faults holds the injected failures and latency, and the request counts.
type faults struct {
	mu      sync.Mutex // guards the fields below
	counts  map[RequestKey]int64
	fail    map[Verb]failure
	latency time.Duration
}

type failure struct {
	n   int
	err error
}
