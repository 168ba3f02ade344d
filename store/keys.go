package store

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// KeyFunc names an object in a store. Two objects with the same key are
// the same object at different times; like client-go's cache.KeyFunc.
type KeyFunc func(obj Object) (string, error)

// MetaNamespaceKeyFunc is the default [KeyFunc]: "namespace/name" for a
// namespaced object and just "name" for a cluster-scoped one, the same keys
// client-go uses, so that keys read in logs and workqueues transfer.
//
// Unlike client-go it refuses a nil object and an object without a name:
// either would be a bug upstream, and an empty key would silently collide.
func MetaNamespaceKeyFunc(obj Object) (string, error) {
	if isNil(obj) {
		return "", errors.New("the object is nil")
	}
	ns, name := obj.GetNamespace(), obj.GetName()
	if name == "" {
		return "", errors.New("metadata.name is empty; set the name (the API server does on create)")
	}
	if ns == "" {
		return name, nil
	}
	return ns + "/" + name, nil
}

// SplitMetaNamespaceKey is the inverse of [MetaNamespaceKeyFunc]: it splits
// "namespace/name" into its parts, and returns an empty namespace for a
// plain "name". A key with more than one slash or an empty part is
// rejected with an [*InvalidKeyError] (client-go accepts "ns/" and "";
// kitchensync does not, since no object can have those keys).
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	namespace, name, found := strings.Cut(key, "/")
	if !found {
		namespace, name = "", key
	}
	switch {
	case name == "":
		return "", "", &InvalidKeyError{Key: key, Reason: "the name is empty"}
	case found && namespace == "":
		return "", "", &InvalidKeyError{Key: key, Reason: "the namespace before the slash is empty"}
	case strings.Contains(name, "/"):
		return "", "", &InvalidKeyError{Key: key, Reason: "it has more than one slash"}
	}
	return namespace, name, nil
}

// InvalidKeyError reports a key that [SplitMetaNamespaceKey] cannot split.
type InvalidKeyError struct {
	Key    string // the key as given
	Reason string // what is wrong with it
}

// Error quotes the key and says which form a key must have.
func (e *InvalidKeyError) Error() string {
	return fmt.Sprintf("store: invalid key %q: %s; want \"namespace/name\" or \"name\"", e.Key, e.Reason)
}

// KeyError reports that the store's [KeyFunc] failed for an object, like
// client-go's cache.KeyError. Err is the key function's error.
type KeyError struct {
	Obj Object
	Err error
}

// Error names the object and why no key could be made for it.
func (e *KeyError) Error() string {
	return fmt.Sprintf("store: cannot make a key for %s: %v", describe(e.Obj), e.Err)
}

// Unwrap returns the key function's error.
func (e *KeyError) Unwrap() error { return e.Err }

// isNil reports whether obj is nil or a nil pointer inside an interface,
// such as a (*Order)(nil), whose methods would panic.
func isNil(obj Object) bool {
	if obj == nil {
		return true
	}
	v := reflect.ValueOf(obj)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan:
		return v.IsNil()
	}
	return false
}

// describe names an object for an error message without calling into a
// nil pointer.
func describe(obj Object) string {
	if isNil(obj) {
		return "<nil>"
	}
	return fmt.Sprintf("%T %q", obj, obj.GetNamespace()+"/"+obj.GetName())
}
