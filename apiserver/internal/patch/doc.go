// Package patch applies the patches that are not server-side apply to an
// object's JSON, with kube-apiserver's rules, limits and errors: a JSON
// merge patch (RFC 7386), a JSON patch (RFC 6902, through
// github.com/evanphx/json-patch, with the v4 behaviour kube-apiserver
// has), and a strategic merge patch (package apiserver/strategicpatch).
// It stores nothing: the server's Patch applies one to the stored object
// and stores the result by the rules of Update, and the HTTP front
// applies one to an object in a served version's form.
//
// It is a package of its own so that the core of the server does not
// carry the patch formats: the core decides what a patched object means,
// this package only computes it.
//
// In the kitchen, it is the correction slip applied to a copy of the
// order: the front desk then files the corrected copy as if it had been
// written out whole.
package patch
