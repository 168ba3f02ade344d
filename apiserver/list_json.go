package apiserver

import (
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

// listJSONPiece is about how many bytes WriteListJSON writes at a time.
const listJSONPiece = 64 << 10
