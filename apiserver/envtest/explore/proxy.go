package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// proxy is the front of one incarnation of a controller over HTTP: it
// passes requests on to the upstream server, except that writes go
// through [run.write], lists wait their turn, and watch streams are cut
// into events that the scheduler delivers one at a time.
type proxy struct {
	h   *overHTTP
	r   *run
	c   *ctrlState
	inc *incarnation
}

// apiRequest is what a request's path and query say.
type apiRequest struct {
	gvr           meta.GroupVersionResource
	ns, name, sub string
	watch         bool
	kind          string
}

// parseAPIRequest reads /api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUB]] and
// /apis/GROUP/VERSION/...; false for anything else (discovery).
func parseAPIRequest(u *url.URL) (apiRequest, bool) {
	var a apiRequest
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	var rest []string
	switch {
	case len(segs) >= 3 && segs[0] == "api":
		a.gvr.Version, rest = segs[1], segs[2:]
	case len(segs) >= 4 && segs[0] == "apis":
		a.gvr.Group, a.gvr.Version, rest = segs[1], segs[2], segs[3:]
	default:
		return a, false
	}
	if len(rest) >= 3 && rest[0] == "namespaces" {
		a.ns, rest = rest[1], rest[2:]
	}
	a.gvr.Resource = rest[0]
	if len(rest) > 1 {
		a.name = rest[1]
	}
	if len(rest) > 2 {
		a.sub = rest[2]
	}
	w := u.Query().Get("watch")
	a.watch = w == "true" || w == "1"
	return a, true
}

func (a apiRequest) key(name string) string {
	if a.ns == "" {
		return name
	}
	return a.ns + "/" + name
}

// ServeHTTP answers a crashed incarnation 503, and routes the rest:
// watches, lists and writes through the explorer, anything else straight
// on to the upstream.
func (p *proxy) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if p.inc.isDead() {
		writeError(w, errCrashed)
		return
	}
	a, ok := parseAPIRequest(req.URL)
	if ok {
		a.kind = a.gvr.Resource
		if info, found := p.r.scheme.KindForResource(a.gvr); found {
			a.kind = info.Kind
		}
	}
	switch {
	case ok && a.watch:
		p.watch(w, req, a)
	case ok && req.Method == http.MethodGet && a.name == "":
		p.list(w, req, a)
	case ok && req.Method != http.MethodGet:
		p.write(w, req, a)
	default:
		p.h.busy(1)
		defer p.h.busy(-1)
		p.pass(w, req, req.URL.Query())
	}
}

// pass forwards req with query and writes the answer.
func (p *proxy) pass(w http.ResponseWriter, req *http.Request, query url.Values) {
	body, _ := io.ReadAll(req.Body)
	resp, err := p.forward(req.Context(), req, body, query)
	if err != nil {
		writeError(w, err)
		return
	}
	resp.write(w)
}

// answer is a response read whole from the upstream.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a *answer) write(w http.ResponseWriter) {
	for k, v := range a.header {
		w.Header()[k] = v
	}
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body)
}

// forward sends req (with body and query) to the upstream and reads the
// whole answer.
func (p *proxy) forward(ctx context.Context, req *http.Request, body []byte, query url.Values) (*answer, error) {
	up, err := http.NewRequestWithContext(ctx, req.Method, p.h.upstream.URL+req.URL.EscapedPath()+"?"+query.Encode(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	up.Header = req.Header.Clone()
	resp, err := p.h.client.Do(up)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	return &answer{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

// list lets a list through in its turn (at the older resourceVersion
// after a Stale crash), in JSON, and learns what the informer caches.
func (p *proxy) list(w http.ResponseWriter, req *http.Request, a apiRequest) {
	q := req.URL.Query()
	st := p.r.streamFor(p.c, p.inc, a.gvr.Resource, a.kind)
	opts := meta.ListOptions{ResourceVersion: q.Get("resourceVersion"), Continue: q.Get("continue")}
	got, err := p.r.beforeList(req.Context(), st, opts)
	if err != nil {
		writeError(w, err)
		return
	}
	p.h.busy(1)
	defer p.h.busy(-1)
	if got.ResourceVersion != opts.ResourceVersion {
		q.Set("resourceVersion", got.ResourceVersion)
		q.Set("resourceVersionMatch", string(got.ResourceVersionMatch))
	}
	req.Header.Set("Accept", "application/json")
	resp, err := p.forward(req.Context(), req, nil, q)
	if err != nil {
		writeError(w, err)
		return
	}
	if resp.status == http.StatusOK {
		var list struct {
			Metadata struct{ ResourceVersion string }
			Items    []struct{ Metadata objectMeta }
		}
		if json.Unmarshal(resp.body, &list) == nil {
			keys := make([]string, len(list.Items))
			for i, it := range list.Items {
				keys[i] = it.Metadata.key()
			}
			p.r.afterList(st, keys, list.Metadata.ResourceVersion, opts.Continue == "", nil)
		}
	}
	resp.write(w)
}

// objectMeta is what the front reads of an object's metadata.
type objectMeta struct{ Namespace, Name, GenerateName, ResourceVersion string }

func (m objectMeta) key() string {
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// write makes a write through [run.write]: it may be answered 409 without
// reaching the server, or crash the controller after it.
func (p *proxy) write(w http.ResponseWriter, req *http.Request, a apiRequest) {
	p.h.busy(1)
	defer p.h.busy(-1)
	body, _ := io.ReadAll(req.Body)
	key := a.key(a.name)
	if a.name == "" && req.Method == http.MethodPost {
		var obj struct{ Metadata objectMeta }
		_ = json.Unmarshal(body, &obj)
		key = a.key(obj.Metadata.Name)
		if obj.Metadata.Name == "" {
			key += obj.Metadata.GenerateName + "*"
		}
	}
	var resp *answer
	err := p.r.write(writeCall{c: p.c, inc: p.inc, verb: httpVerb(req.Method, a.sub), gr: a.gvr.GroupResource(),
		kind: a.kind, key: key,
		do: func() (string, string, error) {
			var err error
			if resp, err = p.forward(req.Context(), req, body, req.URL.Query()); err != nil {
				return "", "", err
			}
			return resp.outcome()
		},
		rvNow: func() string { return latestRV(p.r.ctx, p.r.srv.ResourceFor(a.gvr, "")) },
	})
	if resp != nil && !errors.Is(err, errCrashed) {
		resp.write(w) // the write was made, whatever came of it
		return
	}
	writeError(w, err)
}

// outcome reads a write's answer: the resourceVersion and key of the
// object written, or the error.
func (a *answer) outcome() (rv, key string, err error) {
	if a.status >= 300 {
		var st meta.Status
		if json.Unmarshal(a.body, &st) != nil || st.Code == 0 {
			st = meta.NewInternalError(errors.New(http.StatusText(a.status))).ErrStatus
		}
		return "", "", &meta.StatusError{ErrStatus: st}
	}
	var obj struct{ Metadata objectMeta }
	if json.Unmarshal(a.body, &obj) != nil || obj.Metadata.Name == "" {
		return "", "", nil // e.g. the Status of a delete
	}
	return obj.Metadata.ResourceVersion, obj.Metadata.key(), nil
}

func httpVerb(method, sub string) string {
	switch {
	case method == http.MethodPost:
		return verbCreate
	case method == http.MethodPut && sub == "status":
		return verbUpdateStatus
	case method == http.MethodPut:
		return verbUpdate
	case method == http.MethodPatch:
		return verbPatch
	}
	return verbDelete
}

// writeError answers with err's Status (503 ServiceUnavailable if err is
// not a Status error, e.g. a crashed controller's request).
func writeError(w http.ResponseWriter, err error) {
	var se *meta.StatusError
	if !errors.As(err, &se) {
		se = meta.NewStatusError(http.StatusServiceUnavailable, reasonServiceUnavailable, err.Error(), nil)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(int(se.ErrStatus.Code))
	_ = json.NewEncoder(w).Encode(se.Status())
}

// watch passes a watch on and hands its events to the scheduler, which
// delivers them through a [frameOutlet]. A watch-list (sendInitialEvents)
// is refused, so that the client lists and then watches, as client-go
// does with a server without watch-list: lists must go through their turn.
func (p *proxy) watch(w http.ResponseWriter, req *http.Request, a apiRequest) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(req.Context()))
	defer cancel()
	resp, err := p.openWatch(ctx, req)
	if err != nil {
		writeError(w, err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(resp.Body)
		(&answer{status: resp.StatusCode, header: resp.Header, body: data}).write(w)
		return
	}
	st := p.r.streamFor(p.c, p.inc, a.gvr.Resource, a.kind)
	out := &frameOutlet{ch: make(chan []byte, 1)}
	s := &p.r.sched
	wt := s.addWatch(st, out, cancel)
	go readFrames(s, wt, resp.Body)
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(http.StatusOK)
	flush := func() {}
	if f, ok := w.(http.Flusher); ok {
		flush = f.Flush
	}
	flush()
	for {
		select {
		case frame, ok := <-out.ch:
			if !ok {
				return
			}
			if _, err := w.Write(frame); err != nil {
				s.stop(wt)
				return
			}
			flush()
		case <-req.Context().Done():
			s.stop(wt)
			return
		}
	}
}

// openWatch starts the upstream's watch for req, in JSON and without
// bookmarks, for as long as ctx lasts. A watch-list is refused.
func (p *proxy) openWatch(ctx context.Context, req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	if q.Get("sendInitialEvents") == "true" {
		return nil, meta.NewBadRequest("explore: the front does not serve watch-list (sendInitialEvents); list, then watch")
	}
	q.Set("allowWatchBookmarks", "false")
	up, err := http.NewRequestWithContext(ctx, http.MethodGet, p.h.upstream.URL+req.URL.EscapedPath()+"?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	up.Header = req.Header.Clone()
	up.Header.Set("Accept", "application/json")
	return p.h.client.Do(up)
}

// reasonServiceUnavailable is Kubernetes' reason for a 503.
const reasonServiceUnavailable meta.StatusReason = "ServiceUnavailable"
