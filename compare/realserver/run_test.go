package realserver

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// step is one raw HTTP request. Path is relative to the Widgets of
// namespace default ("" is the collection, "/a" an object, "?..." a
// query), unless it starts with "/apis/" or "/api/". Path and Body may hold {{rv:N}} and {{continue:N}}: the
// resourceVersion and continue token of step N's answer on the same
// server.
//
// During are requests played on the same server once this step's answer
// has begun (a watch's headers have arrived: the watch is open), before
// its body is read; their answers are not compared.
//
// Accept, when set, is the request's Accept header; the answer's
// Content-Type is then compared too, and a protobuf body is compared
// decoded (see decodeProtobuf).
//
// Columns compares the columns and cells of a Table answer too (see
// tables): for the built-in kinds, whose printers kitchensync copies.
type step struct {
	Method, Path, ContentType, Body string
	Accept                          string
	During                          []step
	Columns                         bool
}

// answer is a server's normalised answer to a step.
type answer struct {
	Code        int
	ContentType string   // only for a step with Accept
	Warning     []string // Warning headers
	SameRV      bool     // a single object with the previous step's resourceVersion
	Body        any      // normalised JSON; a watch's events as a list
}

// widgets is the path of the Widgets of namespace default.
const widgets = "/apis/test.kitchensync.io/v1/namespaces/default/widgets"

// memory holds what earlier steps of a case answered on one server.
type memory struct {
	rv, cont []string
}

var placeholder = regexp.MustCompile(`\{\{(rv|continue):(\d+)\}\}`)

func (m *memory) fill(s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(p string) string {
		sub := placeholder.FindStringSubmatch(p)
		n := int(sub[2][0] - '0')
		if sub[1] == "rv" {
			return m.rv[n]
		}
		return m.cont[n]
	})
}

// send plays st on the server at base and normalises the answer.
func send(c *http.Client, base string, st step, m *memory) (answer, error) {
	req, err := newRequest(base, st, m)
	if err != nil {
		return answer{}, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	if err := playDuring(c, base, st.During, m); err != nil {
		return answer{}, err
	}
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	a := answer{Code: resp.StatusCode, Warning: resp.Header.Values("Warning"), SameRV: m.remember(raw)}
	if st.Accept != "" {
		a.ContentType = resp.Header.Get("Content-Type")
	}
	switch resp.Header.Get("Content-Type") {
	case protobufMediaType:
		a.Body = decodeProtobuf(raw)
	case protobufWatchType:
		a.Body = decodeProtobufStream(raw)
	default:
		a.Body = decode(raw)
	}
	a.Body = tables(a.Body, st.Columns)
	return a, nil
}

// playDuring plays steps one after the other, their answers read and
// dropped.
func playDuring(c *http.Client, base string, steps []step, m *memory) error {
	for _, st := range steps {
		req, err := newRequest(base, st, m)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// newRequest builds st's request, its placeholders filled from m.
func newRequest(base string, st step, m *memory) (*http.Request, error) {
	var body io.Reader
	if st.Body != "" {
		body = strings.NewReader(m.fill(st.Body))
	}
	path := m.fill(st.Path)
	if !strings.HasPrefix(path, "/apis/") && !strings.HasPrefix(path, "/api/") {
		path = widgets + path
	}
	req, err := http.NewRequest(st.Method, base+path, body)
	if err != nil {
		return nil, err
	}
	if st.Accept != "" {
		req.Header.Set("Accept", st.Accept)
	}
	if st.Body != "" {
		ct := st.ContentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	return req, nil
}

// remember records the resourceVersion and continue token of an answer,
// and reports whether it is a single object with the resourceVersion of
// the step before (a write that changed nothing keeps it). Lists are
// left out: the real server's list resourceVersion moves with writes
// outside the test (leases).
func (m *memory) remember(raw []byte) bool {
	var meta struct {
		Kind     string
		Metadata struct{ ResourceVersion, Continue string }
	}
	_ = json.Unmarshal(raw, &meta) // a watch stream or plain text has neither
	rv := meta.Metadata.ResourceVersion
	same := rv != "" && len(m.rv) > 0 && rv == m.rv[len(m.rv)-1] && !strings.HasSuffix(meta.Kind, "List")
	m.rv = append(m.rv, rv)
	m.cont = append(m.cont, meta.Metadata.Continue)
	return same
}

// decode parses one JSON document, or a watch stream of several (as a
// list), normalised; anything else stays the plain text it is.
func decode(raw []byte) any {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	var docs []any
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return strings.TrimSpace(string(raw))
		}
		emptySpec := bookmarkWithEmptySpec(v)
		doc := sortResources(normalise(v))
		if emptySpec {
			doc.(map[string]any)["object"].(map[string]any)["spec"] = map[string]any{}
		}
		if len(docs) > 0 && isBookmark(doc) && reflect.DeepEqual(doc, docs[len(docs)-1]) {
			continue
		}
		docs = append(docs, doc)
	}
	if len(docs) == 1 {
		return docs[0]
	}
	return docs
}

// isBookmark reports whether a watch stream's document is a BOOKMARK
// event. decode keeps one of several in a row that read the same once
// normalised: the real server's watch cache times bookmarks in buckets a
// second wide and so sends the one due before a timeout once or twice,
// a second apart; kitchensync sends it once.
func isBookmark(doc any) bool {
	m, ok := doc.(map[string]any)
	return ok && m["type"] == "BOOKMARK"
}

// bookmarkWithEmptySpec reports whether doc is a BOOKMARK whose object
// has an empty spec. normalise drops an empty spec, which kitchensync's
// Go-typed objects always write, but a bookmark's is compared: the real
// server's custom-resource bookmarks have none, its typed built-in ones
// (a Lease's) do.
func bookmarkWithEmptySpec(doc any) bool {
	m, ok := doc.(map[string]any)
	if !ok || m["type"] != "BOOKMARK" {
		return false
	}
	obj, _ := m["object"].(map[string]any)
	spec, ok := obj["spec"].(map[string]any)
	return ok && len(spec) == 0
}

// currentRV is the server's current resourceVersion in a message,
// recordRV a stored one (of a failed precondition), uuid a uid.
var (
	currentRV = regexp.MustCompile(`current: \d+`)
	tooOldRV  = regexp.MustCompile(`too old resource version: (\d+) \(\d+\)`)
	recordRV  = regexp.MustCompile(`in record \(\d+\)`)
	uuid      = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
)

// normalise replaces what must differ between two servers by markers:
// uids, timestamps, resourceVersions (also "current: N", "in record
// (N)" and uids in a message),
// continue tokens. It drops
// managedFields, an empty continue token (the real server writes one,
// kitchensync omits it: the same to any client), and an empty "metadata" or "spec": the real server writes
// a Status's empty metadata, and kitchensync's Go-typed Widget always has
// a spec, which no JSON client tells apart from an absent one.
func normalise(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch k {
			case "continue":
				if x == "" {
					delete(v, k)
				} else {
					v[k] = "<continue>"
				}
			case "uid", "creationTimestamp", "deletionTimestamp", "resourceVersion":
				if x != "" {
					v[k] = "<" + k + ">"
				}
			case "message":
				if m, ok := x.(string); ok {
					m = currentRV.ReplaceAllString(m, "current: <resourceVersion>")
					m = recordRV.ReplaceAllString(m, "in record (<resourceVersion>)")
					m = tooOldRV.ReplaceAllString(m, "too old resource version: $1 (<resourceVersion>)")
					v[k] = uuid.ReplaceAllString(m, "<uid>")
				}
			case "managedFields":
				delete(v, k)
			case "metadata", "spec":
				if m, ok := x.(map[string]any); ok && len(m) == 0 {
					delete(v, k)
				} else {
					v[k] = normalise(x)
				}
			default:
				v[k] = normalise(x)
			}
		}
	case []any:
		for i := range v {
			v[i] = normalise(v[i])
		}
	}
	return v
}

// sortResources sorts the resources of an APIResourceList by name: the
// real server lists custom resources in the order of its informer's
// cache, a map's, which changes from run to run.
func sortResources(v any) any {
	m, ok := v.(map[string]any)
	if !ok || m["kind"] != "APIResourceList" {
		return v
	}
	if rs, ok := m["resources"].([]any); ok {
		slices.SortStableFunc(rs, func(a, b any) int {
			na, _ := a.(map[string]any)["name"].(string)
			nb, _ := b.(map[string]any)["name"].(string)
			return strings.Compare(na, nb)
		})
	}
	return m
}
