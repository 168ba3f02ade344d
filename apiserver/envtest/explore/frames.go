package explore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// readFrames cuts the upstream's JSON lines into items.
func readFrames(s *scheduler, wt *watch, body io.Reader) {
	br := bufio.NewReader(body)
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			s.push(wt, frameItem(line))
		}
		if err != nil {
			s.upstreamEnded(wt)
			return
		}
	}
}

// frame is a watch event as JSON on the wire.
type frame struct {
	Type   meta.EventType  `json:"type"`
	Object json.RawMessage `json:"object"`
}

func frameItem(line []byte) item {
	it := item{raw: line}
	var f struct {
		Type   meta.EventType
		Object struct{ Metadata objectMeta }
	}
	if json.Unmarshal(line, &f) == nil {
		it.typ, it.key = f.Type, f.Object.Metadata.key()
		it.rv, _ = strconv.ParseInt(f.Object.Metadata.ResourceVersion, 10, 64)
	}
	return it
}

// frameOutlet delivers frames into a channel of capacity one, which the
// watch's handler writes to the client.
type frameOutlet struct {
	ch   chan []byte
	once sync.Once
}

func (o *frameOutlet) ready() bool     { return len(o.ch) < cap(o.ch) }
func (o *frameOutlet) deliver(it item) { o.ch <- it.raw }

func (o *frameOutlet) retype(it item, typ meta.EventType) item {
	var f frame
	if json.Unmarshal(it.raw, &f) == nil {
		f.Type = typ
		if b, err := json.Marshal(f); err == nil {
			it.raw = append(b, '\n')
		}
	}
	it.typ = typ
	return it
}

func (o *frameOutlet) expire() {
	st, _ := json.Marshal(meta.NewResourceExpired("too old resource version (explore: expired on purpose)").Status())
	b, _ := json.Marshal(frame{Type: meta.EventError, Object: st})
	if o.ready() {
		o.deliver(item{raw: append(b, '\n')})
	}
}

func (o *frameOutlet) close() { o.once.Do(func() { close(o.ch) }) }
