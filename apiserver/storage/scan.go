package storage

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// frameReader reads frames one after another and counts where each
// starts, so that a log can be cut back to its last good frame. The
// payload it returns is good until the next frame is read (records copy
// what they keep), and the names its records share are kept once.
type frameReader struct {
	r     *bufio.Reader
	off   int64 // where the next frame starts
	buf   []byte
	names names
}

func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, 256<<10), names: names{}}
}

// records calls fn for each record of payload, a frame's, in order.
func (fr *frameReader) records(payload []byte, fn func(Record) error) error {
	return decodeRecords(payload, fr.names, fn)
}

// errNoFrame is what a frame reader finds where a frame should be but is
// not: the end of the data (zeros), a frame cut short, or damage. Which of
// them it is takes the rest of the file to tell ([classifyTail]).
var errNoFrame = errors.New("no frame here")

// next returns the next frame's payload: io.EOF at a clean end of the
// file, errNoFrame (wrapped, with what is wrong) for anything else that
// is not a whole frame with its checksum.
func (fr *frameReader) next() ([]byte, error) {
	var head [headerBytes]byte
	n, err := io.ReadFull(fr.r, head[:])
	switch {
	case err == io.EOF:
		return nil, io.EOF
	case err != nil:
		return nil, fmt.Errorf("%w: a header cut short (%d of %d bytes)", errNoFrame, n, headerBytes)
	case head == [headerBytes]byte{}:
		return nil, fmt.Errorf("%w: zero bytes", errNoFrame)
	}
	size := binary.BigEndian.Uint32(head[:4])
	if size == 0 || size > maxFrameBytes {
		return nil, fmt.Errorf("%w: a length of %d bytes", errNoFrame, size)
	}
	payload, err := fr.readPayload(int(size))
	if err != nil {
		return nil, fmt.Errorf("%w: a frame cut short (%d of %d bytes)", errNoFrame, len(payload), size)
	}
	if crc32.Checksum(payload, castagnoli) != binary.BigEndian.Uint32(head[4:]) {
		return nil, fmt.Errorf("%w: a checksum mismatch", errNoFrame)
	}
	fr.off += int64(headerBytes + len(payload))
	return payload, nil
}

// readPayload reads a payload of size bytes, into the reader's buffer.
// Past a few megabytes it reads what is there rather than allocate what
// the length claims: a garbled length can claim a gigabyte.
func (fr *frameReader) readPayload(size int) ([]byte, error) {
	if size <= 4<<20 {
		if cap(fr.buf) < size {
			fr.buf = make([]byte, size)
		}
		n, err := io.ReadFull(fr.r, fr.buf[:size])
		return fr.buf[:n], err
	}
	payload, err := io.ReadAll(io.LimitReader(fr.r, int64(size)))
	if err == nil && len(payload) < size {
		err = io.ErrUnexpectedEOF
	}
	return payload, err
}

// classifyTail tells what rest, the bytes of a log from where a frame
// reader found no frame to the end of the file, is. A crash in the
// middle of a write leaves one frame cut short (the file ends inside it,
// or the part never written reads as zeros), perhaps followed by zeros:
// then dropped says what it held, and err is nil. Anything else is
// damage that no crash makes (a flipped bit, a garbled length, a good
// frame after a bad one), and err says what it is.
func classifyTail(rest []byte) (dropped string, err error) {
	if isZero(rest) {
		return fmt.Sprintf("%d zero bytes (preallocated space, or a tail the file system filled with zeros)", len(rest)), nil
	}
	if at, ok := nextGoodFrame(rest); ok {
		return "", fmt.Errorf("a damaged frame, with a good frame after it (%d bytes on): this is not a write cut short", at)
	}
	if len(rest) < headerBytes {
		return fmt.Sprintf("a frame header cut short (%d of %d bytes)", len(rest), headerBytes), nil
	}
	size := int64(binary.BigEndian.Uint32(rest[:4]))
	end := headerBytes + size
	switch {
	case size == 0 || size > maxFrameBytes:
		return "", fmt.Errorf("a frame length of %d bytes", size)
	case end > int64(len(rest)):
		return fmt.Sprintf("a frame cut short (%d of %d bytes)", len(rest)-headerBytes, size), nil
	case !isZero(rest[end:]):
		return "", fmt.Errorf("a checksum mismatch, and %d more bytes that are not a frame", int64(len(rest))-end)
	case partlyWritten(rest[headerBytes:end]):
		return fmt.Sprintf("a frame partly written (%d bytes, zeros where its data was due)", size), nil
	}
	return "", errors.New("a checksum mismatch: the frame's bytes changed after they were written")
}

// partlyWritten reports whether a frame's payload has zeros where JSON
// text never has them: a run of eight, or at its very end. A write the
// disk did not finish leaves its unwritten sectors as zeros; a flipped
// bit does not make eight zero bytes.
func partlyWritten(payload []byte) bool {
	return payload[len(payload)-1] == 0 || bytes.Contains(payload, make([]byte, 8))
}

// nextGoodFrame returns where in rest, after its first byte, a whole
// frame with a matching checksum starts, if one does. Past
// maxScanBytes of checksums (bytes crafted to look like many frames) it
// gives up and says yes, which refuses the tail: never a silent loss.
func nextGoodFrame(rest []byte) (int, bool) {
	scanned := 0
	for at := 1; at+headerBytes < len(rest); at++ {
		if rest[at+headerBytes] != '{' { // every payload starts a record
			continue
		}
		size := int(binary.BigEndian.Uint32(rest[at:]))
		end := at + headerBytes + size
		if size == 0 || end > len(rest) || end < at {
			continue
		}
		if scanned += size; scanned > maxScanBytes ||
			crc32.Checksum(rest[at+headerBytes:end], castagnoli) == binary.BigEndian.Uint32(rest[at+4:]) {
			return at, true
		}
	}
	return 0, false
}

// maxScanBytes bounds the checksums nextGoodFrame computes.
const maxScanBytes = 256 << 20

// isZero reports whether b is all zero bytes.
func isZero(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b) != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
