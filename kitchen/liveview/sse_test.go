package liveview_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// streamed is what the page keeps of a frame: its events and how many
// events the view says it left out so far.
type streamed struct {
	Events []struct {
		Seq  uint64
		Text string
	}
	Coalesced int
}

// A page that stops reading for a while (a busy browser, a slow
// network) must not lose events silently: when it reads again, every
// event the view emitted meanwhile reaches it, or is counted as
// coalesced. In particular the last button's event is not lost.
func TestASlowPageMissesNoEventSilently(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, v := open(t)
		ctx, cancel := context.WithCancel(t.Context())
		pr, pw := io.Pipe()
		served := make(chan struct{})
		go func() {
			w := streamWriter{h: http.Header{}, w: pw}
			v.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/events", nil).WithContext(ctx))
			close(served)
		}()
		frames := frameReader{bufio.NewReader(pr)}
		frames.next(t) // the current state; now the page stops reading
		for range 3 {
			post(t, v, "/actions/place?dish=caesar-salad")
			time.Sleep(2 * time.Second)
		}
		post(t, v, "/actions/cut-watches")
		time.Sleep(2 * time.Second)

		var last uint64
		coalesced, cut := 0, false
		for i := 0; i < 40 && !cut; i++ {
			var f streamed
			raw := frames.next(t)
			_ = json.Unmarshal(raw["events"], &f.Events)
			_ = json.Unmarshal(raw["coalesced"], &f.Coalesced)
			for _, ev := range f.Events {
				if last != 0 && ev.Seq != last+1 && int(ev.Seq-last-1) > f.Coalesced-coalesced {
					t.Errorf("events %d to %d never reached the page, and only %d were counted as coalesced",
						last+1, ev.Seq-1, f.Coalesced-coalesced)
				}
				last, coalesced = ev.Seq, f.Coalesced
				cut = cut || strings.HasPrefix(ev.Text, "every watch cut")
			}
		}
		if !cut {
			t.Error("the page never heard that the watches were cut")
		}
		cancel()
		go io.Copy(io.Discard, pr) // let the handler finish its last write
		<-served
		pr.Close()
	})
}
