package bakery

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// journalHandler is a log/slog handler that writes the records it keeps
// into the journal, so that structured logs can be part of a
// deterministic narration: tell turns a record (its level, message and
// all its attributes) into a journal line, or drops it.
type journalHandler struct {
	j     *Journal
	who   string
	tell  func(r slog.Record, attrs []slog.Attr) (key, event, text string, ok bool)
	attrs []slog.Attr
}

// newJournalLogger returns a logger whose records that keep accepts (given
// their level and all their attributes) are narrated by j as who, as
// "[log]" lines without the time.
func newJournalLogger(j *Journal, who string, keep func(slog.Level, []slog.Attr) bool) *slog.Logger {
	return slog.New(&journalHandler{j: j, who: who, tell: func(r slog.Record, attrs []slog.Attr) (string, string, string, bool) {
		if !keep(r.Level, attrs) {
			return "", "", "", false
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s", r.Level, r.Message)
		for _, a := range attrs {
			fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		}
		return "", "log", b.String(), true
	}})
}

// newNarratingLogger returns a logger whose records tell turns into
// journal lines in the narration's own words, as who.
func newNarratingLogger(j *Journal, who string, tell func(slog.Record, []slog.Attr) (key, event, text string, ok bool)) *slog.Logger {
	return slog.New(&journalHandler{j: j, who: who, tell: tell})
}

// Enabled accepts every level; Handle filters with tell.
func (h *journalHandler) Enabled(context.Context, slog.Level) bool { return true }

// Handle narrates r if tell has words for it.
func (h *journalHandler) Handle(_ context.Context, r slog.Record) error {
	attrs := append([]slog.Attr(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, a)
		return true
	})
	if key, event, text, ok := h.tell(r, attrs); ok {
		h.j.Say(h.who, key, event, "%s", text)
	}
	return nil
}

// WithAttrs returns a handler adding attrs to every record.
func (h *journalHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), attrs...)
	return &c
}

// WithGroup is not needed by the shop's loggers: groups are flattened.
func (h *journalHandler) WithGroup(string) slog.Handler { return h }

// hasAttr reports whether attrs has one named key.
func hasAttr(attrs []slog.Attr, key string) bool {
	for _, a := range attrs {
		if a.Key == key {
			return true
		}
	}
	return false
}

// attrString returns the value of the attribute named key as a string,
// or "" if attrs has none.
func attrString(attrs []slog.Attr, key string) string {
	for _, a := range attrs {
		if a.Key == key {
			return a.Value.String()
		}
	}
	return ""
}
