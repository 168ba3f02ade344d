package apiserver

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/fieldmanager"
	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/apiserver/namespaces"
)

// ResourceClient makes requests for one resource (one kind) of a
// [Server], across all namespaces or, after [ResourceClient.Namespace], in
// one. It is what a Kubernetes dynamic client's ResourceInterface is, and
// satisfies the informer's ListerWatcher as it is.
//
// Every object it returns is the caller's own deep copy; objects passed in
// are never modified. A ResourceClient is safe for concurrent use, and
// cheap: make as many as you like.
type ResourceClient struct {
	srv     *Server
	gvr     meta.GroupVersionResource
	ns      string
	version string // the served version writes are made in (InVersion); "" for the kind's own
}

// Resource returns a client for the resource gvr in all namespaces. An
// unregistered gvr is not an error here: each request then fails with 404
// NotFound, as the real server answers a path it does not serve.
func (s *Server) Resource(gvr meta.GroupVersionResource) *ResourceClient {
	return &ResourceClient{srv: s, gvr: gvr}
}

// ResourceFor returns a client for the resource gvr in namespace ns, as
// a [client.ResourceInterface]: with it, the server is a
// [client.Interface], which the typed [client.Client], informer factories
// and reconcilers take.
func (s *Server) ResourceFor(gvr meta.GroupVersionResource, ns string) client.ResourceInterface {
	return &ResourceClient{srv: s, gvr: gvr, ns: ns}
}

var _ client.Interface = (*Server)(nil)

// Namespace returns a copy of c scoped to namespace ns ("" means all
// namespaces).
func (c *ResourceClient) Namespace(ns string) *ResourceClient {
	out := *c
	out.ns = ns
	return &out
}

// InVersion returns a copy of c whose writes are made in apiVersion, a
// version that serves c's kind ([meta.ServedVersion], such as
// "events.k8s.io/v1" for Events), as the HTTP front makes them: objects
// still go in and out in the kind's own form, but each write is held to
// that version's rules too ([meta.ServedVersion.Validate]), an apply's
// configuration is in that version, and metadata.managedFields record the
// writer's fields in its field names, as Kubernetes records them.
func (c *ResourceClient) InVersion(apiVersion string) *ResourceClient {
	out := *c
	out.version = apiVersion
	return &out
}

// writer is who writes through c: manager, in c's version.
func (c *ResourceClient) writer(manager string, status bool) fieldmanager.Writer {
	return fieldmanager.Writer{Manager: manager, Status: status, APIVersion: c.version}
}

// checkServed holds next, written through c, to the rules of the version
// c writes in, if any; old is nil for a create.
func (c *ResourceClient) checkServed(info meta.KindInfo, vs fieldmanager.Versions, next, old meta.Object) error {
	if v, ok := vs.Served(c.version); ok {
		return v.Validate(next, old).ToError(info.GroupKind(), next.GetObjectMeta().Name)
	}
	return nil
}

// begin accounts for a request (see [Server.begin]) and finds the kind.
func (c *ResourceClient) begin(ctx context.Context, verb Verb) (meta.KindInfo, error) {
	gr := c.gvr.GroupResource()
	if err := c.srv.begin(ctx, verb, gr); err != nil {
		return meta.KindInfo{}, err
	}
	info, ok := c.srv.scheme.KindForResource(c.gvr)
	if !ok {
		return meta.KindInfo{}, errUnknownResource(gr)
	}
	if !info.Namespaced && c.ns != "" {
		return meta.KindInfo{}, errClusterScoped(info, c.ns)
	}
	return info, nil
}

// key returns the storage key of name for a request by name.
func (c *ResourceClient) key(info meta.KindInfo, name string) (string, error) {
	if name == "" {
		return "", errEmptyName()
	}
	if info.Namespaced && c.ns == "" {
		return "", errNamespaceRequired(info)
	}
	return objectKey(c.ns, name), nil
}

// checkBody checks that obj is a non-nil object of the client's kind.
func (c *ResourceClient) checkBody(info meta.KindInfo, obj meta.Object) error {
	got, err := c.srv.scheme.KindFor(obj)
	if err != nil {
		return err
	}
	if got.GroupVersionKind() != info.GroupVersionKind() {
		return meta.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s serves kind %s",
			got.Kind, got.TypeMeta().APIVersion, info.Kind, info.GroupResource(), info.GroupVersionKind()))
	}
	return nil
}

// namespaceFor returns the namespace an object with namespace ns is
// written to through c, or a typed error naming metadata.namespace.
func (c *ResourceClient) namespaceFor(info meta.KindInfo, name, ns string) (string, error) {
	var errs meta.FieldErrors
	switch {
	case !info.Namespaced && ns != "":
		errs.Forbidden("metadata.namespace", "not allowed on this type")
	case !info.Namespaced:
	case ns == "" && c.ns == "":
		errs.Required("metadata.namespace", "")
	case ns == "":
		ns = c.ns
	case c.ns != "" && ns != c.ns:
		errs.Invalid("metadata.namespace", ns, fmt.Sprintf("does not match the namespace of the request (%q)", c.ns))
	}
	return ns, errs.ToError(info.GroupKind(), name) // its form is checked with the name's (prepareNew)
}

// newEntry encodes obj (already set up for storing) into an entry,
// enforcing MaxObjectBytes.
func (s *Server) newEntry(obj meta.Object) (*entry, error) {
	enc, err := encodeContent(obj, fieldsOf(obj))
	if err != nil {
		return nil, err
	}
	return s.entryOf(obj, enc)
}

// entryOf is the entry of obj encoded as enc, enforcing MaxObjectBytes.
func (s *Server) entryOf(obj meta.Object, enc encoded) (*entry, error) {
	if len(enc.content) > s.opts.MaxObjectBytes { // kube-apiserver's answer when etcd refuses the write
		return nil, meta.NewStatusError(500, "", "etcdserver: request is too large", nil)
	}
	jsonenc.ShareAnnotations(obj.GetObjectMeta().Annotations, enc.content) // long values held once, not twice
	return &entry{obj: obj, content: enc.content, spec: enc.spec}, nil
}

// Get returns the object name (in the client's namespace).
func (c *ResourceClient) Get(ctx context.Context, name string, opts meta.GetOptions) (meta.Object, error) {
	e, err := c.getEntry(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return e.obj.DeepCopyObject(), nil
}

// GetJSON is [ResourceClient.Get] encoded: the bytes json.Marshal makes
// of the object Get returns, written from the JSON the server keeps of
// it (as [ResourceClient.ListJSON] writes a list's items), not copied
// and encoded again.
func (c *ResourceClient) GetJSON(ctx context.Context, name string, opts meta.GetOptions) ([]byte, error) {
	e, err := c.getEntry(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return appendEntryJSON(nil, e)
}

// getEntry is the stored state Get answers with.
func (c *ResourceClient) getEntry(ctx context.Context, name string, opts meta.GetOptions) (*entry, error) {
	info, err := c.begin(ctx, VerbGet)
	if err != nil {
		return nil, err
	}
	if _, ok := parseRV(opts.ResourceVersion); !ok && opts.ResourceVersion != "" {
		return nil, errBadRV(opts.ResourceVersion)
	}
	key, err := c.key(info, name)
	if err != nil {
		return nil, err
	}
	c.srv.mu.Lock()
	e, seen := c.srv.objects[info.GroupResource()][key], c.srv.hist.last
	c.srv.mu.Unlock()
	if err := c.srv.awaitDurable(seen); err != nil || e == nil { // an answer waits for what it shows to be on the disk
		return nil, cmp.Or(err, error(meta.NewNotFound(info.GroupResource(), name)))
	}
	if err := checkShared(info.GroupResource(), key, e); err != nil {
		return nil, err
	}
	return e, nil
}

// Create stores a new object and returns it as stored: with a uid,
// creationTimestamp, generation 1 and the new resourceVersion. If the name
// is empty and metadata.generateName is set, the server appends five
// random characters to make a unique name. The namespace comes from the
// object or, if empty there, from the client.
//
// Status, for a kind that has one, is dropped: it is written only through
// [ResourceClient.UpdateStatus], as for a Kubernetes custom resource with a
// status subresource.
//
// Errors: 409 AlreadyExists; 422 Invalid for a bad or missing name or
// namespace, or bad labels or annotations; 400 BadRequest for a nil
// object, one of another kind, or one with a resourceVersion; 500 for an
// object over [Options.MaxObjectBytes], as etcd refuses it.
func (c *ResourceClient) Create(ctx context.Context, obj meta.Object, opts meta.CreateOptions) (meta.Object, error) {
	info, err := c.begin(ctx, VerbCreate)
	if err != nil {
		return nil, err
	}
	if err := c.checkBody(info, obj); err != nil {
		return nil, err
	}
	m := obj.GetObjectMeta()
	if m.ResourceVersion != "" {
		return nil, meta.NewBadRequest("resourceVersion should not be set on objects to be created")
	}
	ns, err := c.namespaceFor(info, m.Name, m.Namespace)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		out, err := c.create(info, obj, ns, opts)
		if meta.IsAlreadyExists(err) && m.Name == "" && attempt < 8 {
			continue // a generated name collided: generate another
		}
		return out, err
	}
}

// create makes one attempt at storing a copy of obj in namespace ns, and
// returns the writer's copy of what it stored.
func (c *ResourceClient) create(info meta.KindInfo, obj meta.Object, ns string, opts meta.CreateOptions) (meta.Object, error) {
	in := obj.DeepCopyObject()
	info.SetTypeMeta(in.GetTypeMeta())
	m := in.GetObjectMeta()
	m.Namespace = ns
	if err := c.srv.checkNamespace(info, m); err != nil {
		return nil, err // admission comes before names are made and objects validated
	}
	if m.Name == "" && m.GenerateName != "" {
		m.Name = m.GenerateName + c.srv.randomString(5)
	}
	if err := info.NormalizeObject(in, nil); err != nil {
		return nil, err
	}
	vs := fieldmanager.VersionsOf(c.srv.scheme, info.GroupVersionKind())
	if err := c.checkServed(info, vs, in, nil); err != nil {
		return nil, err
	}
	if err := fieldmanager.TrackCreate(info, vs, in, c.writer(opts.FieldManager, false)); err != nil {
		return nil, err
	}
	ch, err := c.srv.createChange(info, in, opts.DryRun)
	if err != nil {
		return nil, err
	}
	return c.srv.mutateCopy(info.GroupResource(), objectKey(ns, m.Name), func(old *entry) (change, error) {
		if old != nil {
			return change{}, meta.NewAlreadyExists(info.GroupResource(), m.Name)
		}
		return ch, nil
	})
}

// createChange is the change that creates next, prepared by prepareNew:
// an ADDED event, or, for a dry run, the object alone; with the writer's
// copy, whose labels the stored state may share with the state stored
// before it.
func (s *Server) createChange(info meta.KindInfo, next meta.Object, dryRun bool) (change, error) {
	e, err := s.prepareNew(info, next)
	if err != nil {
		return change{}, err
	}
	ch := change{typ: meta.EventAdded, obj: e, out: s.writerCopy(e, nil)}
	if dryRun {
		ch.typ = ""
	}
	return ch, nil
}

// prepareNew applies the rules of Create to in, named and placed in its
// namespace: the server-owned metadata is set, status starts empty, and
// in is validated. It owns in.
func (s *Server) prepareNew(info meta.KindInfo, in meta.Object) (*entry, error) {
	m := in.GetObjectMeta()
	errs := meta.ValidateName("metadata.name", m.Name) // every create comes here: Create, apply, an update that creates
	errs = append(errs, meta.ValidateNamespace("metadata.namespace", m.Namespace)...)
	errs = append(errs, meta.ValidateLabels("metadata.labels", m.Labels)...)
	errs = append(errs, meta.ValidateAnnotations("metadata.annotations", m.Annotations)...)
	errs = append(errs, meta.ValidateOwnerReferences("metadata.ownerReferences", m.OwnerReferences)...)
	errs = append(errs, meta.ValidateFinalizers("metadata.finalizers", m.Finalizers)...)
	if err := errs.ToError(info.GroupKind(), m.Name); err != nil {
		return nil, err
	}
	m.UID = s.newUID()
	m.CreationTimestamp = meta.NewTime(time.Now())
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	if !info.NoGeneration {
		m.Generation = 1
	} // else the kind's strategy leaves it as sent, as kube-apiserver's do
	if hasStatus(info, in) {
		// As for a custom resource with a status subresource, create
		// cannot set status: it starts empty.
		clearStatus(in, fieldsOf(in))
	}
	namespaces.PrepareForCreate(in)
	if err := info.NormalizeObject(in, nil); err != nil {
		return nil, err
	}
	if err := info.ValidateObject(in); err != nil {
		return nil, err
	}
	return s.newEntry(in)
}
