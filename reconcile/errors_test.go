package reconcile_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kitchensync/kitchensync/reconcile"
)

func TestTerminalError(t *testing.T) {
	base := errors.New("dish not on the menu")
	term := reconcile.TerminalError(base)
	wrapped := fmt.Errorf("reconciling order: %w", term)
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"terminal", term, true},
		{"wrapped terminal", wrapped, true},
		{"nil terminal", reconcile.TerminalError(nil), true},
		{"plain", base, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := reconcile.IsTerminal(tt.err); got != tt.want {
			t.Errorf("%s: IsTerminal = %v, want %v", tt.name, got, tt.want)
		}
		if got := errors.Is(tt.err, reconcile.TerminalError(nil)); got != tt.want {
			t.Errorf("%s: errors.Is(err, TerminalError(nil)) = %v, want %v", tt.name, got, tt.want)
		}
	}
	if !errors.Is(wrapped, base) {
		t.Errorf("errors.Is does not see the error a terminal error wraps")
	}
	if got, want := wrapped.Error(), "reconciling order: terminal error: dish not on the menu"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
