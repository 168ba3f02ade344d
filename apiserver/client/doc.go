// Package client is the one seam between a program and an API server: the
// calls on a resource ([ResourceInterface]), a server as its clients see it
// ([Interface]), a typed client over either ([Client]), and
// [RetryOnConflict] for the 409 that every writer meets.
//
// In the kitchen, this is the counter of the front desk: the waiter, the
// runner and the chef all talk to the desk through it, whether the desk is
// in the same room (the in-process server, *apiserver.Server) or across
// the street (the HTTP client, *rest.Client). Nothing else about the desk
// reaches them.
//
// # One interface, two servers
//
// [Interface] has two methods: Scheme, to map Go types to kinds, and
// ResourceFor, to reach one resource in one namespace. The in-process
// server and the HTTP client both implement it, so the typed [Client],
// the informer factory (package informer) and the reconciler's client
// (package reconcile) take either:
//
//	orders := client.New[*Order](srv)         // beside the server
//	orders := client.New[*Order](restClient)  // over HTTP
//
// A test can hand any of them a fake that implements the two methods, but
// the in-process server is usually the better fake: it answers as the
// real one does, conflicts and all.
//
// # Conflicts
//
// Every update carries the resourceVersion it read. If someone wrote the
// object since, the update fails with 409 Conflict ([meta.IsConflict]),
// and the cure is to read again, reapply the change and write again:
// [RetryOnConflict] does that, with [DefaultRetry], like client-go's
// retry.RetryOnConflict.
package client
