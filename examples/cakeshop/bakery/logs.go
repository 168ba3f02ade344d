package bakery

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// journalHandler is a log/slog handler that writes the records it keeps
// into the journal, as "[log]" lines without the time, so that structured
// logs can be part of a deterministic narration.
type journalHandler struct {
	j     *Journal
	who   string
	keep  func(level slog.Level, attrs []slog.Attr) bool
	attrs []slog.Attr
}

// newJournalLogger returns a logger whose records that keep accepts (given
// their level and all their attributes) are narrated by j as who.
func newJournalLogger(j *Journal, who string, keep func(slog.Level, []slog.Attr) bool) *slog.Logger {
	return slog.New(&journalHandler{j: j, who: who, keep: keep})
}

// Enabled accepts every level; Handle filters with keep.
func (h *journalHandler) Enabled(context.Context, slog.Level) bool { return true }

// Handle narrates r if keep accepts it.
func (h *journalHandler) Handle(_ context.Context, r slog.Record) error {
	attrs := append([]slog.Attr(nil), h.attrs...)
	r.Attrs(func(a slog.Attr) bool {
		attrs = append(attrs, a)
		return true
	})
	if !h.keep(r.Level, attrs) {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Level, r.Message)
	for _, a := range attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	h.j.Say(h.who, "", "log", "%s", b.String())
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
