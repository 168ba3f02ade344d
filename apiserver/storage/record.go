package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"time"
	"unicode/utf8"
)

// The on-disk format of a data directory's logs and of a snapshot is one:
// a sequence of frames, each
//
//	length (4 bytes, big endian) | CRC-32C of the payload (4 bytes) | payload
//
// whose payload is one or more JSON [Record]s, one a line. A snapshot
// starts with a header record (Type [SnapshotType]) that gives the
// resourceVersion it was taken at, followed by one ADDED record per
// object, one record a frame. A log holds one record per committed write,
// in resourceVersion order; the writes that one sync made durable share
// a frame (see [Log.Wait]), so that a crash can damage only the last frame
// of the last log. The checksum is how a reader tells a frame cut short
// by a crash from a complete one, as etcd's write-ahead log does. A
// header of eight zero bytes is not a frame: it is where the data ends
// and the file's preallocated space (or a zero-filled tail) begins.

// SnapshotType is the Type of a snapshot's header record.
const SnapshotType = "SNAPSHOT"

// maxFrameBytes bounds a frame's payload when reading, so that a corrupt
// length cannot make the reader allocate gigabytes; frameTarget is the
// payload size at which a writer starts a new frame.
const (
	maxFrameBytes = 1 << 30
	frameTarget   = 64 << 20
	headerBytes   = 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// timeFormat is how a record's Time is written: RFC 3339 in UTC with
// microseconds, as Kubernetes writes a MicroTime, always as long.
const timeFormat = "2006-01-02T15:04:05.000000Z07:00"

// Record is one committed write (Type ADDED, MODIFIED or DELETED), or a
// snapshot's header (Type [SnapshotType]).
type Record struct {
	// RV is the resourceVersion the write took.
	RV int64 `json:"rv"`
	// Type is the watch event type of the write, or SnapshotType.
	Type string `json:"type"`
	// APIVersion and Kind name the object's kind.
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	// Resource is unused by this server's writes; kept for old logs.
	Resource string `json:"resource,omitempty"`
	// Key is "namespace/name", or "name" for a cluster-scoped object.
	Key string `json:"key,omitempty"`
	// Time is when [Log.Append] took the write, to the microsecond, on
	// the first write after a snapshot (or into an empty directory) only:
	// it is what the age of the writes no snapshot holds yet is counted
	// from ([Options.SnapshotAge]), across restarts. Zero on every other
	// record, which Append writes with the Time it is given.
	Time time.Time `json:"time,omitzero"`
	// Object is the object's JSON without metadata.resourceVersion; empty
	// for DELETED. It must be valid JSON: it is written as it is, not
	// encoded again.
	Object json.RawMessage `json:"object,omitempty"`
}

// appendRecord appends rec's JSON and a newline to buf: the fields in
// the order of [Record]'s, and the object's JSON as it is (the API
// server encoded it once already).
func appendRecord(buf []byte, rec Record) []byte {
	buf = append(buf, `{"rv":`...)
	buf = strconv.AppendInt(buf, rec.RV, 10)
	buf = appendField(buf, "type", rec.Type, true)
	buf = appendField(buf, "apiVersion", rec.APIVersion, false)
	buf = appendField(buf, "kind", rec.Kind, false)
	buf = appendField(buf, "resource", rec.Resource, false)
	buf = appendField(buf, "key", rec.Key, false)
	if !rec.Time.IsZero() {
		buf = append(buf, `,"time":"`...)
		buf = rec.Time.UTC().AppendFormat(buf, timeFormat)
		buf = append(buf, '"')
	}
	if len(rec.Object) > 0 {
		buf = append(buf, `,"object":`...)
		if bytes.IndexByte(rec.Object, '\n') < 0 {
			buf = append(buf, rec.Object...)
		} else {
			buf = appendCompact(buf, rec.Object)
		}
	}
	return append(buf, "}\n"...)
}

// appendField appends `,"name":"value"`, unless value is empty and
// omitEmpty is false.
func appendField(buf []byte, name, value string, always bool) []byte {
	if value == "" && !always {
		return buf
	}
	buf = append(buf, ',', '"')
	buf = append(buf, name...)
	buf = append(buf, '"', ':')
	return appendString(buf, value)
}

// appendString appends s as a JSON string. Keys and kinds are plain ASCII
// names; anything else is escaped as encoding/json would read it back.
func appendString(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			b, _ := json.Marshal(s) // a string always encodes
			return append(buf, b...)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, s...)
	return append(buf, '"')
}

// appendCompact appends obj without its line breaks, which separate
// records in a frame. JSON that does not compact is appended as it is,
// for the reader to refuse.
func appendCompact(buf, obj []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, obj); err != nil {
		return append(buf, obj...)
	}
	return append(buf, b.Bytes()...)
}

// sealFrame writes the header of the frame whose payload is
// frame[headerBytes:]: its length and checksum.
func sealFrame(frame []byte) {
	payload := frame[headerBytes:]
	binary.BigEndian.PutUint32(frame[:4], uint32(len(payload)))
	binary.BigEndian.PutUint32(frame[4:8], crc32.Checksum(payload, castagnoli))
}

// appendFrame appends a frame holding rec alone to buf.
func appendFrame(buf []byte, rec Record) []byte {
	start := len(buf)
	buf = append(buf, make([]byte, headerBytes)...)
	buf = appendRecord(buf, rec)
	sealFrame(buf[start:])
	return buf
}

// decodeRecords calls fn for each record of a frame's payload, in order.
// A payload that is not records is an error (the checksum matched, so
// it is not a crash's work: something else wrote it).
func decodeRecords(payload []byte, names names, fn func(Record) error) error {
	if len(payload) == 0 {
		return errors.New("an empty frame")
	}
	for len(payload) > 0 {
		var rec Record
		n, err := decodeRecord(payload, names, &rec)
		if err != nil {
			return fmt.Errorf("a record that is not JSON: %v", err)
		}
		if err := fn(rec); err != nil {
			return err
		}
		payload = payload[n:]
	}
	return nil
}

// decodeRecord decodes the record at the start of payload into rec and
// returns its length, line end included. rec.Object is a copy: a record's
// object outlives its frame.
func decodeRecord(payload []byte, names names, rec *Record) (int, error) {
	n := bytes.IndexByte(payload, '\n')
	if n < 0 {
		n = len(payload) // a record alone in its frame, as an older version wrote it
	} else {
		n++
	}
	if !readRecord(payload[:n], names, rec) {
		if err := json.Unmarshal(payload[:n], rec); err != nil {
			return 0, err
		}
	}
	rec.Object = bytes.Clone(rec.Object)
	return n, nil
}

// readRecord reads a record as appendRecord writes it (its fields in
// order, plain strings, the object last) without scanning the object:
// the frame's checksum says these are the bytes that were written. It
// returns false for anything else, which encoding/json then reads (as
// it does the rare record with a Time).
func readRecord(line []byte, names names, rec *Record) bool {
	line, ok := bytes.CutPrefix(bytes.TrimRight(line, "\n"), []byte(`{"rv":`))
	end := bytes.IndexByte(line, ',')
	if !ok || end < 0 {
		return false
	}
	rv, err := strconv.ParseInt(string(line[:end]), 10, 64)
	if err != nil {
		return false
	}
	*rec = Record{RV: rv}
	line = line[end:]
	for _, f := range []struct {
		name string
		to   *string
	}{{"type", &rec.Type}, {"apiVersion", &rec.APIVersion}, {"kind", &rec.Kind}, {"resource", &rec.Resource}, {"key", &rec.Key}} {
		if line, ok = readField(line, f.name, f.to, names); !ok {
			return false
		}
	}
	if obj, ok := bytes.CutPrefix(line, []byte(`,"object":`)); ok {
		rec.Object, line = obj[:len(obj)-1], obj[len(obj)-1:]
	}
	return string(line) == "}" && (rec.Object == nil || len(rec.Object) > 0)
}

// readField reads `,"name":"value"` at the start of line into to, if it
// is there and value is a plain string (no escapes); every value but a
// key is one of a few, kept once in names.
func readField(line []byte, name string, to *string, names names) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`,"`+name+`":"`))
	if !ok {
		return line, true // omitted: empty
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return line, false
	}
	if name == "key" {
		*to = string(rest[:end])
	} else {
		*to = names.of(rest[:end])
	}
	return rest[end+1:], true
}

// names keeps one copy of each name it is asked for.
type names map[string]string

func (n names) of(b []byte) string {
	if s, ok := n[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(n) < 1024 {
		n[s] = s
	}
	return s
}
