package ops

import (
	"fmt"
	"math/rand/v2"
)

// InformerOpKind names one step of an informer scenario.
type InformerOpKind int

// The informer steps: writes to the server, and faults.
const (
	// WCreate creates Obj (if absent).
	WCreate InformerOpKind = iota
	// WUpdate sets Obj's color and tags (if present).
	WUpdate
	// WDelete deletes Obj (if present).
	WDelete
	// FOutage cuts both informers off: their watches end and every list
	// or watch waits until FRecover.
	FOutage
	// FRecover ends an outage; with Compact, the server first forgets its
	// history, so the informers' re-watch gets 410 Expired and they relist.
	FRecover
	// FCloseWatches ends every watch cleanly (informers re-watch).
	FCloseWatches
	// FLateHandler adds a second handler to both informers.
	FLateHandler
	// FFail makes the next N list (List) or watch calls of both informers
	// fail with the API error Reason, then closes the watches.
	FFail
	// FRemoveLate removes the late handler from both informers.
	FRemoveLate
	// FBlip closes the watches and, a microsecond after the informers
	// re-watched, starts an outage (never generated; see F4).
	FBlip
)

var informerOpNames = [...]string{"Create", "Update", "Delete", "Outage", "Recover", "CloseWatches", "LateHandler", "Fail", "RemoveLate", "Blip"}

// FailReasons are the errors FFail injects: a server error (retried), a
// throttle (backed off), and an expired resourceVersion (relist).
var FailReasons = []string{"InternalError", "TooManyRequests", "Expired"}

// InformerOp is one step of an informer scenario.
type InformerOp struct {
	Kind    InformerOpKind
	Obj     Object
	Compact bool
	// For FFail: which calls, how many, and the error's reason.
	List   bool
	N      int
	Reason string
}

func (o InformerOp) String() string {
	switch o.Kind {
	case WCreate, WUpdate, WDelete:
		return informerOpNames[o.Kind] + " " + o.Obj.String()
	case FRecover:
		return fmt.Sprintf("Recover(compact=%v)", o.Compact)
	case FFail:
		return fmt.Sprintf("Fail(list=%v, n=%d, %s)", o.List, o.N, o.Reason)
	}
	return informerOpNames[o.Kind]
}

// InformerOps returns an informer scenario: initial objects to create
// before the informers start, then steps. Outages always end with a
// Recover, and the scenario ends with both informers connected.
func InformerOps(r *rand.Rand, n, keys int) (initial []Object, steps []InformerOp) {
	g := &objects{r: r, keys: keys}
	for range r.IntN(keys) {
		initial = append(initial, g.next())
	}
	down, late, removed := false, false, false
	for range n {
		switch m := r.IntN(100); {
		case m < 30:
			steps = append(steps, InformerOp{Kind: WCreate, Obj: g.next()})
		case m < 60:
			steps = append(steps, InformerOp{Kind: WUpdate, Obj: g.next()})
		case m < 80:
			steps = append(steps, InformerOp{Kind: WDelete, Obj: g.next()})
		case m < 87 && !down:
			down = true
			steps = append(steps, InformerOp{Kind: FOutage})
		case m < 94 && down:
			down = false
			steps = append(steps, InformerOp{Kind: FRecover, Compact: r.IntN(2) == 0})
		case m < 95 && !down:
			steps = append(steps, InformerOp{Kind: FCloseWatches})
		case m < 98 && !down:
			steps = append(steps, InformerOp{Kind: FFail, List: r.IntN(2) == 0, N: 1 + r.IntN(3), Reason: FailReasons[r.IntN(len(FailReasons))]})
		case !late:
			late = true
			steps = append(steps, InformerOp{Kind: FLateHandler})
		case !removed && r.IntN(3) == 0:
			removed = true
			steps = append(steps, InformerOp{Kind: FRemoveLate})
		}
	}
	if down {
		steps = append(steps, InformerOp{Kind: FRecover, Compact: r.IntN(2) == 0})
	}
	return initial, steps
}
