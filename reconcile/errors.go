package reconcile

import (
	"errors"
	"reflect"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// TerminalError wraps err to say that retrying will not help — the object is
// invalid and only a change to it can fix things. The controller logs it,
// counts it (controller_runtime_terminal_reconcile_errors_total, and also
// the ordinary error counters), forgets the key's backoff and does not
// requeue it; the next event for the key reconciles it again.
//
// Check for one with errors.Is(err, TerminalError(nil)), which matches any
// terminal error in err's chain, or with [IsTerminal]. Like
// controller-runtime's reconcile.TerminalError.
func TerminalError(err error) error {
	return &terminalError{err: err}
}

// IsTerminal reports whether err or an error it wraps was made by
// [TerminalError].
func IsTerminal(err error) bool {
	return errors.Is(err, TerminalError(nil))
}

type terminalError struct {
	err error
}

func (e *terminalError) Error() string {
	if e.err == nil {
		return "nil terminal error"
	}
	return "terminal error: " + e.err.Error()
}

// Unwrap returns the wrapped error, so errors.Is and errors.As see through.
func (e *terminalError) Unwrap() error { return e.err }

// Is makes every terminal error match every other, so that
// errors.Is(err, TerminalError(nil)) finds one anywhere in a chain.
func (e *terminalError) Is(target error) bool {
	var t *terminalError
	return errors.As(target, &t)
}

// metaOf returns obj's metadata, or nil when obj is nil or a typed nil
// pointer (which would panic on GetObjectMeta).
func metaOf(obj meta.Object) *meta.ObjectMeta {
	if obj == nil {
		return nil
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return obj.GetObjectMeta()
}
