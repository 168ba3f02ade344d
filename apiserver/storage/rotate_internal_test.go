package storage

import (
	"testing"
	"time"
)

// TestSnapshotDue: a snapshot is due by writes (if asked), by bytes (at
// least as many as the last snapshot holds) or by age, and never with no
// write to take in.
func TestSnapshotDue(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	opts := Options{SnapshotBytes: 100, SnapshotAge: time.Hour}
	tests := []struct {
		name   string
		c      counts
		o      Options
		now    time.Time
		due    bool
		reason string
	}{
		{"nothing written", counts{since: t0}, opts, t0.Add(2 * time.Hour), false, "no write to take in, however old"},
		{"few bytes, young", counts{writes: 5, bytes: 99, since: t0}, opts, t0.Add(time.Minute), false, ""},
		{"enough bytes", counts{writes: 5, bytes: 100, since: t0}, opts, t0, true, "SnapshotBytes reached"},
		{"a big snapshot", counts{writes: 5, bytes: 150, snapBytes: 1000, since: t0}, opts, t0, false, "logs smaller than the snapshot they would replace"},
		{"logs as big as the snapshot", counts{writes: 5, bytes: 1000, snapBytes: 1000, since: t0}, opts, t0, true, ""},
		{"old", counts{writes: 1, bytes: 1, since: t0}, opts, t0.Add(time.Hour), true, "SnapshotAge reached"},
		{"by count", counts{writes: 3, bytes: 1, since: t0}, Options{SnapshotBytes: 100, SnapshotAge: time.Hour, SnapshotEvery: 3}, t0, true, ""},
	}
	for _, tt := range tests {
		if got := snapshotDue(tt.c, tt.o, tt.now); got != tt.due {
			t.Errorf("%s: due %t, want %t (%s)", tt.name, got, tt.due, tt.reason)
		}
	}
}
