package apiserver

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ListJSON is [ResourceClient.List] encoded: the bytes json.Marshal
// makes of the list List returns, without a trailing newline. It writes
// each item from the JSON the server keeps of every stored state, with
// the resourceVersion put back, instead of copying and encoding it again,
// which is most of the cost of a large list served over HTTP.
func (c *ResourceClient) ListJSON(ctx context.Context, opts meta.ListOptions) ([]byte, error) {
	head, selected, err := c.listJSON(ctx, opts)
	if err != nil {
		return nil, err
	}
	size := len(head)
	for _, e := range selected {
		size += len(e.content) + 40
	}
	return appendListJSON(make([]byte, 0, size), head, selected, nil)
}

// listJSON reads a list for ListJSON: the JSON of its metadata, up to
// the opening bracket of its items, and the selected entries.
func (c *ResourceClient) listJSON(ctx context.Context, opts meta.ListOptions) ([]byte, []*entry, error) {
	info, err := c.begin(ctx, VerbList)
	if err != nil {
		return nil, nil, err
	}
	list, selected, err := c.listEntries(ctx, info, opts)
	if err != nil {
		return nil, nil, err
	}
	head, err := json.Marshal(list) // Items empty: ends with "items":[]}
	if err != nil {
		return nil, nil, err
	}
	return head[:len(head)-2], selected, nil
}

// appendListJSON appends to out the list of head and selected (see
// listJSON). If flush is not nil, it is handed out whenever out holds
// more than listJSONPiece bytes, and out starts again empty.
func appendListJSON(out, head []byte, selected []*entry, flush func([]byte) error) ([]byte, error) {
	out = append(out, head...)
	var err error
	for i, e := range selected {
		if i > 0 {
			out = append(out, ',')
		}
		if out, err = appendEntryJSON(out, e); err != nil {
			return nil, err
		}
		if flush != nil && len(out) > listJSONPiece {
			if err := flush(out); err != nil {
				return nil, err
			}
			out = out[:0]
		}
	}
	return append(out, ']', '}'), nil
}

// AppendObjectJSON appends to out the bytes json.Marshal makes of obj.
// For an object of a watch event, which is the server's own state as
// committed (see "Shared objects" in the package doc), it writes them
// from the JSON the server keeps of that state, as long as its history
// still holds the event, instead of encoding obj again. Any other object
// is encoded.
func (s *Server) AppendObjectJSON(out []byte, obj meta.Object) ([]byte, error) {
	if rv, ok := parseRV(obj.GetObjectMeta().ResourceVersion); ok && rv > 0 {
		if ev := s.hist.at(rv); ev != nil && ev.obj.obj == obj {
			return appendEntryJSON(out, ev.obj)
		}
	}
	return jsonenc.Append(out, obj)
}

// appendEntryJSON appends the JSON of e's object: its content with the
// resourceVersion spliced in, or, for an object whose JSON does not have
// the shape of ObjectMeta, the object encoded afresh.
func appendEntryJSON(out []byte, e *entry) ([]byte, error) {
	rv := e.obj.GetObjectMeta().ResourceVersion
	if at, comma, ok := rvOffset(e.content); ok && isDigits(rv) {
		out = append(out, e.content[:at]...)
		if comma == ',' {
			out = append(out, ',')
		}
		out = append(out, `"resourceVersion":"`...)
		out = append(out, rv...)
		out = append(out, '"')
		if comma == '>' {
			out = append(out, ',')
		}
		return append(out, e.content[at:]...), nil
	}
	return jsonenc.Append(out, e.obj)
}

// metaBeforeRV reports whether ObjectMeta writes key before
// resourceVersion.
func metaBeforeRV(key []byte) bool {
	switch string(key) {
	case "name", "generateName", "namespace", "uid":
		return true
	}
	return false
}

// rvOffset finds where resourceVersion goes in content, the JSON of an
// object with it cleared: at is the offset, and comma says whether a
// comma goes before the field (','), after it ('>') or neither (0). ok is
// false when content does not start {"apiVersion":..,"kind":..,
// "metadata":{ with only string fields before resourceVersion.
func rvOffset(content []byte) (at int, comma byte, ok bool) {
	const prefix = `"metadata":{`
	i := bytes.Index(content, []byte(prefix))
	if i < 0 || !bytes.HasPrefix(content, []byte(`{"apiVersion":`)) {
		return 0, 0, false
	}
	p := i + len(prefix)
	first := true
	for {
		if p >= len(content) {
			return 0, 0, false
		}
		if content[p] == '}' {
			if first {
				return p, 0, true
			}
			return p, ',', true
		}
		key, end, ok := scanString(content, p)
		if !ok || end >= len(content) || content[end] != ':' {
			return 0, 0, false
		}
		if !metaBeforeRV(key) {
			return p, '>', true
		}
		_, vend, ok := scanString(content, end+1)
		if !ok || vend >= len(content) {
			return 0, 0, false
		}
		p, first = vend, false
		if content[p] == ',' {
			p++
		} else if content[p] != '}' {
			return 0, 0, false
		}
	}
}

// scanString reads the JSON string starting at b[p] (a quote); end is the
// offset after its closing quote. The key is returned raw (only keys
// without escapes are compared).
func scanString(b []byte, p int) (s []byte, end int, ok bool) {
	if p >= len(b) || b[p] != '"' {
		return nil, 0, false
	}
	for q := p + 1; q < len(b); q++ {
		switch b[q] {
		case '\\':
			q++
		case '"':
			return b[p+1 : q], q + 1, true
		}
	}
	return nil, 0, false
}

func isDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
