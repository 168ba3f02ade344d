package storage

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The on-disk format of a data directory's logs and of a snapshot is one:
// a sequence of framed records, each
//
//	length (4 bytes, big endian) | CRC-32C of the payload (4 bytes) | payload
//
// whose payload is one JSON [Record]. A snapshot starts with a header
// record (Type [SnapshotType]) that gives the resourceVersion it was taken
// at, followed by one ADDED record per object; a log holds one record per
// committed write, in resourceVersion order. The checksum is how a reader
// tells a record cut short by a crash (the writer died in the middle of
// it) from a complete one, as etcd's write-ahead log does.

// SnapshotType is the Type of a snapshot's header record.
const SnapshotType = "SNAPSHOT"

// maxRecordBytes bounds a record's payload when reading, so that a
// corrupt length cannot make the reader allocate gigabytes.
const maxRecordBytes = 1 << 30

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

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
	// Object is the object's JSON without metadata.resourceVersion; empty
	// for DELETED.
	Object json.RawMessage `json:"object,omitempty"`
}

// appendFrame appends the framed payload of rec to buf.
func appendFrame(buf []byte, rec Record) ([]byte, error) {
	payload, err := json.Marshal(rec)
	if err != nil {
		return buf, err
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(payload)))
	buf = binary.BigEndian.AppendUint32(buf, crc32.Checksum(payload, castagnoli))
	return append(buf, payload...), nil
}

// errTorn marks a record cut short: the end of what was written.
var errTorn = errors.New("torn record")

// frameReader reads framed records and counts the bytes of the complete
// ones, so that a log can be cut back to its last complete record.
type frameReader struct {
	r    *bufio.Reader
	good int64 // bytes up to the end of the last complete record
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next record; io.EOF at a clean end, errTorn (wrapped)
// when the rest is a record cut short, another error for a record that is
// complete but wrong.
func (fr *frameReader) next() (Record, error) {
	var head [8]byte
	n, err := io.ReadFull(fr.r, head[:])
	switch {
	case err == io.EOF:
		return Record{}, io.EOF
	case err != nil:
		return Record{}, fmt.Errorf("%w: %d of 8 header bytes", errTorn, n)
	}
	size := binary.BigEndian.Uint32(head[:4])
	if size > maxRecordBytes {
		return Record{}, fmt.Errorf("%w: a length of %d bytes", errTorn, size)
	}
	// Read what is there rather than allocate what the length claims: a
	// length that a crash or damage garbled can claim a gigabyte.
	payload, err := io.ReadAll(io.LimitReader(fr.r, int64(size)))
	if err != nil || len(payload) < int(size) {
		return Record{}, fmt.Errorf("%w: %d of %d bytes", errTorn, len(payload), size)
	}
	if crc32.Checksum(payload, castagnoli) != binary.BigEndian.Uint32(head[4:]) {
		return Record{}, fmt.Errorf("%w: checksum mismatch", errTorn)
	}
	var rec Record
	if err := json.Unmarshal(payload, &rec); err != nil {
		return Record{}, fmt.Errorf("a record that is not JSON: %v", err)
	}
	fr.good += int64(len(head) + len(payload))
	return rec, nil
}
