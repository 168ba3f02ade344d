package apiserver

import (
	"bytes"
	"cmp"
	"math"

	"github.com/kitchensync/kitchensync/apiserver/internal/jsonenc"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// A write encodes the new state once, into its entry's content. Whether
// the desired state changed (which moves metadata.generation) is read
// from that content and the stored one, as the spec members of the two
// JSON documents (each entry remembers where its spec lies), not by
// encoding both specs again; when it did, the generation is rewritten in
// the content in place.

// encoded is an object's content, and where its metadata and its spec
// lie in it (the encoder notes both as it writes them).
type encoded struct {
	content    []byte
	meta, spec span
}

// encodeContent encodes obj, with its resourceVersion cleared (and
// restored), into its content, noting where the members kf names lie
// (which it does not, for a kind that encodes itself: see
// [kindFields.jsonKeys]). obj must not be shared yet. The encoder is
// jsonenc's, which writes json.Marshal's bytes without its reflection.
func encodeContent(obj meta.Object, kf kindFields) (encoded, error) {
	m := obj.GetObjectMeta()
	rv := m.ResourceVersion
	m.ResourceVersion = ""
	at := jsonenc.Members{Names: [2]string{kf.metaKey, kf.specKey}}
	content, err := jsonenc.MarshalMembers(obj, &at)
	m.ResourceVersion = rv
	if err != nil {
		return encoded{}, errUnencodable(err)
	}
	return encoded{content, spanOf(at.At[0], len(content)), spanOf(at.At[1], len(content))}, nil
}

// spanOf is sp as a span of content n bytes long, or unknown.
func spanOf(sp jsonenc.Span, n int) span {
	if n > math.MaxInt32 {
		return span{}
	}
	return span{int32(sp.Start), int32(sp.End)}
}

// specSpan locates the spec member's value in content, this process's
// encoding of an object of a kind with fields kf, looking from the member
// that starts at content[from] on (1: the first).
func specSpan(content []byte, kf kindFields, from int) span {
	if kf.specKey == "" || len(content) > math.MaxInt32 || len(content) < 2 || content[0] != '{' {
		return span{}
	}
	v, ok := jsonenc.MemberFrom(content, from, kf.specKey)
	if !ok && from != 1 {
		v, ok = jsonenc.MemberFrom(content, 1, kf.specKey)
	}
	if !ok {
		return span{}
	}
	at := jsonenc.Offset(content, v)
	return span{int32(at), int32(at + len(v))}
}

// nextGeneration sets next's generation (encoded in enc as old's) to
// one more than old's if its desired state differs from old's, and
// returns enc with that generation. It owns next and enc.
func nextGeneration(old *entry, next meta.Object, enc encoded, kf kindFields) (encoded, error) {
	if enc.spec.end == 0 {
		enc.spec = specSpan(enc.content, kf, 1)
	}
	sp := enc.spec
	var changed bool
	if sp.end > 0 && old.spec.end > 0 {
		changed = !bytes.Equal(enc.content[sp.start:sp.end], old.content[old.spec.start:old.spec.end])
	} else {
		oldSpec, err1 := specJSON(old.obj, kf)
		newSpec, err2 := specJSON(next, kf)
		if err := cmp.Or(err1, err2); err != nil {
			return encoded{}, errUnencodable(err)
		}
		changed = !bytes.Equal(oldSpec, newSpec)
	}
	if !changed {
		return enc, nil
	}
	nm := next.GetObjectMeta()
	nm.Generation++
	if enc.meta.end > 0 {
		om := enc.content[enc.meta.start:enc.meta.end]
		if out, at, grew, ok := jsonenc.SetNumber(enc.content, om, "generation", nm.Generation); ok {
			if sp.end > 0 && int(sp.start) > at {
				sp.start, sp.end = sp.start+int32(grew), sp.end+int32(grew)
			}
			return encoded{content: out, spec: sp}, nil
		}
	}
	return encodeContent(next, kf)
}

// errUnencodable is the 400 for an object encoding/json cannot encode.
func errUnencodable(err error) error {
	return meta.NewBadRequest("the object cannot be encoded as JSON: " + err.Error())
}

// appendEntryJSON appends the JSON of e's object: its content with the
// resourceVersion spliced in, or, for an object whose JSON does not have
// the shape of ObjectMeta, the object encoded afresh.
func appendEntryJSON(out []byte, e *entry) ([]byte, error) {
	place := e.rvPlace.Load()
	if place == 0 { // found once per entry, as the entry is read-only and shared
		at, comma, _ := jsonenc.ResourceVersionPlace(e.content)
		place = uint64(at)<<8 | uint64(comma)
		e.rvPlace.Store(place)
	}
	if b, ok := jsonenc.SpliceResourceVersion(out, e.content, int(place>>8), byte(place), e.obj.GetObjectMeta().ResourceVersion); ok {
		return b, nil
	}
	return jsonenc.Append(out, e.obj)
}
