package apiserver

import (
	"testing"
	"time"
)

func TestNextBookmarkTime(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	sec := func(n float64) time.Time { return now.Add(time.Duration(n * float64(time.Second))) }
	tests := []struct {
		name     string
		deadline time.Time
		wantAt   time.Time
		wantOK   bool
	}{
		{"no deadline: an interval from now", time.Time{}, sec(60), true},
		{"far deadline: the interval comes first", sec(600), sec(60), true},
		{"near deadline: 2s before it", sec(30), sec(28), true},
		{"deadline in 2s: now", sec(2), sec(0), true},
		{"deadline in 1s: too late", sec(1), sec(-1), false},
	}
	for _, tt := range tests {
		at, ok := nextBookmarkTime(now, tt.deadline, time.Minute)
		if !at.Equal(tt.wantAt) || ok != tt.wantOK {
			t.Errorf("%s: got %v %v, want %v %v", tt.name, at.Sub(now), ok, tt.wantAt.Sub(now), tt.wantOK)
		}
	}
}
