package httpapi

import (
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// The discovery documents, with the JSON shapes of Kubernetes'
// metav1.APIVersions, APIGroupList, APIGroup and APIResourceList. kubectl
// reads them to learn which resources exist, their kinds, whether they are
// namespaced and which verbs they take.
type (
	apiVersions struct {
		Kind       string   `json:"kind"`
		APIVersion string   `json:"apiVersion,omitempty"`
		Versions   []string `json:"versions"`
		// ServerAddressByClientCIDRs is always empty: clients keep the
		// address they used.
		ServerAddressByClientCIDRs []serverAddress `json:"serverAddressByClientCIDRs"`
	}
	serverAddress struct {
		ClientCIDR    string `json:"clientCIDR"`
		ServerAddress string `json:"serverAddress"`
	}
	apiGroupList struct {
		Kind       string     `json:"kind"`
		APIVersion string     `json:"apiVersion"`
		Groups     []apiGroup `json:"groups"`
	}
	apiGroup struct {
		Kind             string                     `json:"kind,omitempty"`
		APIVersion       string                     `json:"apiVersion,omitempty"`
		Name             string                     `json:"name"`
		Versions         []groupVersionForDiscovery `json:"versions"`
		PreferredVersion groupVersionForDiscovery   `json:"preferredVersion"`
	}
	groupVersionForDiscovery struct {
		GroupVersion string `json:"groupVersion"`
		Version      string `json:"version"`
	}
	apiResourceList struct {
		Kind         string        `json:"kind"`
		APIVersion   string        `json:"apiVersion"`
		GroupVersion string        `json:"groupVersion"`
		Resources    []apiResource `json:"resources"`
	}
	apiResource struct {
		Name         string   `json:"name"`
		SingularName string   `json:"singularName"`
		Namespaced   bool     `json:"namespaced"`
		Kind         string   `json:"kind"`
		Verbs        []string `json:"verbs"`
		// Group and Version name the kind of a subresource served in
		// another group (a scale subresource's autoscaling/v1 Scale).
		Group   string `json:"group,omitempty"`
		Version string `json:"version,omitempty"`
		// ShortNames are the abbreviations kubectl takes ("ev").
		ShortNames []string `json:"shortNames,omitempty"`
		// Categories are the groups of resources kubectl get takes
		// ("all").
		Categories []string `json:"categories,omitempty"`
		// StorageVersionHash tells clients (the storage version migrator)
		// when the stored version changes: a hash of group, version and
		// kind.
		StorageVersionHash string `json:"storageVersionHash,omitempty"`
	}
	// versionInfo is the shape of k8s.io/apimachinery's version.Info.
	versionInfo struct {
		Major        string `json:"major"`
		Minor        string `json:"minor"`
		GitVersion   string `json:"gitVersion"`
		GitCommit    string `json:"gitCommit"`
		GitTreeState string `json:"gitTreeState"`
		BuildDate    string `json:"buildDate"`
		GoVersion    string `json:"goVersion"`
		Compiler     string `json:"compiler"`
		Platform     string `json:"platform"`
	}
)

// The verbs every resource takes, and its status subresource, in the
// order kube-apiserver's discovery lists them: its built-in kinds' sorted,
// a custom resource's in the order of the apiextensions server.
var (
	builtinVerbs = []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}
	customVerbs  = []string{"delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"}
	statusVerbs  = []string{"get", "patch", "update"}
)

// isBuiltin reports whether a kind is in a group of Kubernetes' own (the
// core group or one under k8s.io), which kube-apiserver serves itself,
// rather than as a custom resource.
func isBuiltin(k meta.KindInfo) bool {
	return k.Group == "" || k.Group == "k8s.io" || strings.HasSuffix(k.Group, ".k8s.io")
}

// storageVersionHash is kube-apiserver's hash of a kind's storage
// version: the first 8 bytes of the SHA-256 of "group/version/Kind",
// base64-encoded. A CRD whose storage version is not served has none:
// the real server hashes the storage version only among the served ones.
func storageVersionHash(k meta.KindInfo) string {
	if k.NotServed {
		return ""
	}
	version := k.Version
	if v, ok := builtinStorageVersions[k.GroupResource()]; ok {
		version = v
	}
	sum := sha256.Sum256([]byte(k.Group + "/" + version + "/" + k.Kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// serveDiscovery answers a GET with the document fn makes.
func (h *Handler) serveDiscovery(w http.ResponseWriter, r *http.Request, fn func() (any, error)) {
	if r.Method != http.MethodGet {
		writeError(w, errMethodNotAllowed(w, r.Method, r.URL.Path, http.MethodGet))
		return
	}
	doc, err := fn()
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, doc)
}

// version is /version. The server speaks the Kubernetes 1.32 API, the
// kubectl version it is tested with.
func (h *Handler) version() (any, error) {
	return versionInfo{
		Major: "1", Minor: "32", GitVersion: "v1.32.0-kitchensync",
		GitTreeState: "clean", GoVersion: runtime.Version(), Compiler: runtime.Compiler,
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}, nil
}

// coreVersions is /api: the versions of the core group (group ""), if the
// scheme has core kinds. With none, the list is empty: kubectl treats an
// announced version with no resources as an error.
func (h *Handler) coreVersions() (any, error) {
	versions := []string{}
	for _, k := range h.servedKinds() {
		if k.Group == "" && !slices.Contains(versions, k.Version) {
			versions = append(versions, k.Version)
		}
	}
	slices.SortFunc(versions, compareVersions)
	return apiVersions{Kind: "APIVersions", Versions: versions, ServerAddressByClientCIDRs: []serverAddress{}}, nil
}

// groupList is /apis: every named group the scheme has kinds in.
func (h *Handler) groupList() (any, error) {
	list := apiGroupList{Kind: "APIGroupList", APIVersion: "v1", Groups: []apiGroup{}}
	for _, name := range h.groupNames() {
		g, _ := h.group(name)
		g.Kind, g.APIVersion = "", ""
		list.Groups = append(list.Groups, g)
	}
	return list, nil
}

// groupNames returns the named groups of the scheme, sorted.
func (h *Handler) groupNames() []string {
	var names []string
	for _, k := range h.servedKinds() {
		if k.Group != "" && !slices.Contains(names, k.Group) {
			names = append(names, k.Group)
		}
	}
	slices.Sort(names)
	return names
}

// group is /apis/{group}: its versions, most preferred first.
func (h *Handler) group(name string) (apiGroup, error) {
	var versions []string
	for _, k := range h.servedKinds() {
		if k.Group == name && !slices.Contains(versions, k.Version) {
			versions = append(versions, k.Version)
		}
	}
	if len(versions) == 0 {
		return apiGroup{}, errNotFound()
	}
	slices.SortFunc(versions, compareVersions)
	g := apiGroup{Kind: "APIGroup", APIVersion: "v1", Name: name}
	for _, v := range versions {
		gv := meta.GroupVersion{Group: name, Version: v}
		g.Versions = append(g.Versions, groupVersionForDiscovery{GroupVersion: gv.String(), Version: v})
	}
	g.PreferredVersion = g.Versions[0]
	return g, nil
}

// resourceList is /api/v1 or /apis/{group}/{version}: the resources of
// one group version, each followed by its subresources (finalize for
// namespaces, status).
func (h *Handler) resourceList(group, version string) (any, error) {
	gv := meta.GroupVersion{Group: group, Version: version}
	list := apiResourceList{Kind: "APIResourceList", APIVersion: "v1", GroupVersion: gv.String(), Resources: []apiResource{}}
	for _, k := range h.servedKinds() {
		if k.Group != group || k.Version != version {
			continue
		}
		verbs := customVerbs
		if isBuiltin(k) {
			verbs = builtinVerbs
		}
		shortNames := builtinShortNames[k.GroupResource()]
		if len(k.ShortNames) > 0 {
			shortNames = k.ShortNames
		}
		list.Resources = append(list.Resources, apiResource{
			Name: k.Resource, SingularName: k.SingularName(), Namespaced: k.Namespaced, Kind: k.Kind, Verbs: verbs,
			ShortNames: shortNames, Categories: k.Categories, StorageVersionHash: storageVersionHash(h.storedKind(k)),
		})
		if hasFinalize(k) {
			list.Resources = append(list.Resources, apiResource{
				Name: k.Resource + "/finalize", Namespaced: k.Namespaced, Kind: k.Kind, Verbs: []string{"update"},
			})
		}
		if hasStatus(k) {
			list.Resources = append(list.Resources, apiResource{
				Name: k.Resource + "/status", Namespaced: k.Namespaced, Kind: k.Kind, Verbs: statusVerbs,
			})
		}
		if k.Scale != nil {
			list.Resources = append(list.Resources, apiResource{
				Name: k.Resource + "/scale", Namespaced: k.Namespaced, Group: "autoscaling", Version: "v1", Kind: "Scale", Verbs: statusVerbs,
			})
		}
	}
	if len(list.Resources) == 0 {
		return nil, errNotFound()
	}
	return list, nil
}

// servedKinds returns every registered kind served over HTTP (not a
// CRD's storage version marked served: false), then the kinds of the
// served versions ([meta.ServedVersion]): all that discovery lists.
func (h *Handler) servedKinds() []meta.KindInfo {
	kinds := slices.DeleteFunc(h.srv.Scheme().Kinds(), func(k meta.KindInfo) bool { return k.NotServed })
	for _, v := range h.srv.Scheme().ServedVersions() {
		kinds = append(kinds, v.Info)
	}
	return kinds
}

// storedKind is the kind whose objects k's resource holds: the stored
// kind of a served version (whose storage version discovery names), or
// else k.
func (h *Handler) storedKind(k meta.KindInfo) meta.KindInfo {
	if t, ok := h.servedTarget(k.GroupVersionResource()); ok {
		return t.stored
	}
	return k
}

// builtinStorageVersions are the versions kube-apiserver stores built-in
// kinds in where that is not the version served: it still writes
// CustomResourceDefinitions to etcd as v1beta1.
var builtinStorageVersions = map[meta.GroupResource]string{
	{Group: "apiextensions.k8s.io", Resource: "customresourcedefinitions"}: "v1beta1",
}

// builtinShortNames are the short names kube-apiserver's registry gives
// the built-in resources kitchensync serves, as `kubectl get ev` and
// `kubectl get ns` use them.
var builtinShortNames = map[meta.GroupResource][]string{
	{Resource: "events"}:                         {"ev"},
	{Group: "events.k8s.io", Resource: "events"}: {"ev"},
	{Resource: "namespaces"}:                     {"ns"},
}

// kubeVersion matches the Kubernetes version names: v1, v2beta1, v1alpha3.
var kubeVersion = regexp.MustCompile(`^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$`)

// compareVersions orders versions as Kubernetes prefers them: GA before
// beta before alpha, higher numbers first within each, then anything
// else alphabetically.
func compareVersions(a, b string) int {
	ka, kb := versionKey(a), versionKey(b)
	return cmp.Or(-cmp.Compare(ka[0], kb[0]), -cmp.Compare(ka[1], kb[1]), -cmp.Compare(ka[2], kb[2]), cmp.Compare(a, b))
}

// versionKey returns (stability, major, minor) with stability 3 for GA,
// 2 for beta, 1 for alpha and 0 for a name that is not a Kubernetes
// version.
func versionKey(v string) [3]int {
	m := kubeVersion.FindStringSubmatch(v)
	if m == nil {
		return [3]int{}
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[3])
	stability := map[string]int{"": 3, "beta": 2, "alpha": 1}[m[2]]
	return [3]int{stability, major, minor}
}
