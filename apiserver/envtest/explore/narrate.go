package explore

import (
	"fmt"
	"strings"

	"github.com/kitchensync/kitchensync/trace"
)

// Component is the [trace.Component] of the records the explorer emits
// about a run: the workload's steps, the events it delivers, the writes it
// lets through, the perturbations it makes and the violation it finds.
const Component trace.Component = "explore"

const component = Component

// The actions of the explorer's records.
const (
	actStep      trace.Action = "step"       // Count the step, Detail its name
	actDelivered trace.Action = "delivered"  // an event handed to an informer (DeltaType its type)
	actWrote     trace.Action = "wrote"      // a write let through (Detail the verb, Err if it failed)
	actListed    trace.Action = "listed"     // an informer's list (Count items)
	actStaleList trace.Action = "stale-list" // a list read at an older resourceVersion
	actHeld      trace.Action = "held"       // an informer's events held back from now on
	actReleased  trace.Action = "released"   // ... and let go
	actCut       trace.Action = "cut"        // a watch ended cleanly on purpose
	actExpired   trace.Action = "expired"    // a watch ended with 410 on purpose
	actConflict  trace.Action = "conflict"   // a write answered 409 on purpose
	actCrashed   trace.Action = "crashed"    // a controller killed after a write
	actStopped   trace.Action = "stopped"    // a controller stopped for a step
	actRestarted trace.Action = "restarted"  // ... and started again (Count the incarnation)
	actViolated  trace.Action = "violated"   // what went wrong
)

// keep says which records a run keeps for narration: the explorer's, and
// the controllers' reconciles and relists if they hand Conn.Tracer to
// their machinery (the other hand-offs would drown the story).
func keep(rec trace.Record) bool {
	switch rec.Component {
	case component:
		return true
	case trace.Controller:
		return rec.Action == trace.ReconcileFinished
	case trace.Reflector:
		return rec.Action == trace.Expired
	}
	return false
}

// emit hands rec to the run's tracer.
func (r *run) emit(rec trace.Record) { r.tr.Emit(rec) }

// records returns a copy of what the run has kept.
func (r *run) records() []trace.Record {
	r.recMu.Lock()
	defer r.recMu.Unlock()
	return append([]trace.Record(nil), r.recs...)
}

// perturbing reports whether rec is a perturbation.
func perturbing(rec trace.Record) bool {
	if rec.Component != component {
		return false
	}
	switch rec.Action {
	case actHeld, actCut, actExpired, actConflict, actCrashed, actStopped, actStaleList:
		return true
	}
	return false
}

// Render formats one record of a run as a line of narration: steps flush
// left, what happens indented, perturbations marked ">>" and the
// violation "!!". Records of other components print as
// [trace.Record.String].
func Render(rec trace.Record) string {
	if rec.Component != component {
		return "   " + rec.String()
	}
	who := rec.Name
	switch rec.Action {
	case actStep:
		return fmt.Sprintf("step %d: %s", rec.Count, rec.Detail)
	case actDelivered:
		return fmt.Sprintf("   %s <- %s %s %s rv=%s", who, rec.DeltaType, rec.Kind, rec.Key, rec.ResourceVersion)
	case actWrote:
		line := fmt.Sprintf("   %s -> %s %s %s", who, rec.Detail, rec.Kind, rec.Key)
		if rec.Err != nil {
			return line + ": " + rec.Err.Error()
		}
		if rec.ResourceVersion != "" {
			line += " rv=" + rec.ResourceVersion
		}
		return line
	case actListed:
		return fmt.Sprintf("   %s listed %d at rv=%s", who, rec.Count, rec.ResourceVersion)
	case actStaleList:
		return fmt.Sprintf(">> %s lists at the older rv=%s", who, rec.ResourceVersion)
	case actRestarted:
		line := fmt.Sprintf("   %s restarted (incarnation %d)", who, rec.Count)
		if rec.Detail != "" {
			line += ", " + rec.Detail
		}
		return line
	case actViolated:
		return "!! " + rec.Detail
	case actReleased:
		line := "   " + who + " released"
		if rec.Detail != "" {
			line += " (" + rec.Detail + ")"
		}
		return line
	}
	return strings.Join(nonEmpty(">>", who, string(rec.Action), rec.Kind, rec.Key, rec.Detail), " ")
}

// nonEmpty returns the words that are not empty.
func nonEmpty(words ...string) []string {
	out := words[:0]
	for _, w := range words {
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// narrate renders recs[:at] around the moment the run went wrong: from a
// few lines before the first perturbation (or the last lines, without
// one) to the failure, with the step each part belongs to, and at most
// about maxLines lines.
func narrate(recs []trace.Record, at int) string {
	const context, maxLines = 6, 60
	if at > len(recs) {
		at = len(recs)
	}
	start := max(0, at-maxLines)
	for i, rec := range recs[:at] {
		if perturbing(rec) {
			start = max(0, i-context)
			break
		}
	}
	var lines []string
	if start > 0 {
		for i := start - 1; i >= 0; i-- {
			if recs[i].Action == actStep && recs[i].Component == component {
				lines = append(lines, Render(recs[i]))
				if i < start-1 {
					lines = append(lines, "   ...")
				}
				break
			}
		}
	}
	body := recs[start:at]
	if len(body) > maxLines {
		head, tail := body[:maxLines/3], body[len(body)-2*maxLines/3:]
		for _, rec := range head {
			lines = append(lines, Render(rec))
		}
		lines = append(lines, fmt.Sprintf("   ... (%d lines)", len(body)-len(head)-len(tail)))
		body = tail
	}
	for _, rec := range body {
		lines = append(lines, Render(rec))
	}
	return strings.Join(lines, "\n")
}

// narrateAll renders every record.
func narrateAll(recs []trace.Record) string {
	lines := make([]string, len(recs))
	for i, rec := range recs {
		lines[i] = Render(rec)
	}
	return strings.Join(lines, "\n")
}
