package meta

import "strings"

// GroupVersion names an API group at one version, e.g. menu.example.com/v1.
// The core group (pods, namespaces) has an empty Group.
type GroupVersion struct {
	Group   string
	Version string
}

// ParseGroupVersion splits an apiVersion string such as
// "menu.example.com/v1" (or "v1" for the core group).
func ParseGroupVersion(apiVersion string) GroupVersion {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		return GroupVersion{Version: apiVersion}
	}
	return GroupVersion{Group: group, Version: version}
}

// String returns the apiVersion form: "group/version", or "version" for
// the core group.
func (gv GroupVersion) String() string {
	if gv.Group == "" {
		return gv.Version
	}
	return gv.Group + "/" + gv.Version
}

// WithKind names kind in gv, as apimachinery's GroupVersion.WithKind.
func (gv GroupVersion) WithKind(kind string) GroupVersionKind {
	return GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
}

// GroupVersionKind names a type: the Kind field of an object together with
// its apiVersion.
type GroupVersionKind struct {
	Group   string
	Version string
	Kind    string
}

// GroupVersion drops the kind.
func (gvk GroupVersionKind) GroupVersion() GroupVersion {
	return GroupVersion{Group: gvk.Group, Version: gvk.Version}
}

// String returns "group/version, Kind=Kind", as Kubernetes prints it.
func (gvk GroupVersionKind) String() string {
	return gvk.GroupVersion().String() + ", Kind=" + gvk.Kind
}

// GroupVersionResource names a collection in the REST API: the lowercase
// plural "orders" in /apis/menu.example.com/v1/namespaces/x/orders.
type GroupVersionResource struct {
	Group    string
	Version  string
	Resource string
}

// GroupResource drops the version; error messages name resources this way
// (orders.menu.example.com).
func (gvr GroupVersionResource) GroupResource() GroupResource {
	return GroupResource{Group: gvr.Group, Resource: gvr.Resource}
}

// String returns "group/version, Resource=resource".
func (gvr GroupVersionResource) String() string {
	return GroupVersion{gvr.Group, gvr.Version}.String() + ", Resource=" + gvr.Resource
}

// GroupResource is a resource without a version, e.g. orders.menu.example.com.
type GroupResource struct {
	Group    string
	Resource string
}

// String returns "resource.group", or "resource" for the core group, the
// form the server's error messages use.
func (gr GroupResource) String() string {
	if gr.Group == "" {
		return gr.Resource
	}
	return gr.Resource + "." + gr.Group
}

// GroupKind is a kind without a version, e.g. Order.menu.example.com;
// validation errors name kinds this way.
type GroupKind struct {
	Group string
	Kind  string
}

// String returns "Kind.group", or "Kind" for the core group, the form the
// server's Invalid errors use.
func (gk GroupKind) String() string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

// GroupKind drops the version.
func (gvk GroupVersionKind) GroupKind() GroupKind {
	return GroupKind{Group: gvk.Group, Kind: gvk.Kind}
}
