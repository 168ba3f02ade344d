package store

// Object is what the store needs of an object: the namespace and name it
// is keyed and indexed by, the getters of Kubernetes' metav1.Object. Every
// meta.Object is one; the store needs nothing else, so it imports no
// other package of this module.
type Object interface {
	GetNamespace() string
	GetName() string
}
