package liveview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/kitchen"
)

// runnerWatches is how many watches the kitchen's runner keeps open
// (orders, cooks, dishes).
const runnerWatches = 3

// RushHourOrders is how many orders the rush-hour button places at once.
const RushHourOrders = 50

// FieldError is a button's bad input: which form field, and what is
// wrong with it. The page shows its message; the response is a 400.
type FieldError struct {
	Field  string
	Reason string
}

// Error says which field is wrong and why, e.g. "n: want a whole number from 0 to 100".
func (e *FieldError) Error() string { return e.Field + ": " + e.Reason }

// errNoOrder answers a button that needs an order when none is open.
var errNoOrder = errors.New("no open order to act on: place one first")

// action is what one button does; it returns what to tell the user.
type action func(v *View, r *http.Request) (string, error)

// actions are the page's buttons, by the last segment of their path
// (POST /actions/{name}).
var actions = map[string]action{
	"place":       (*View).place,
	"vip":         (*View).placeVIP,
	"rush":        (*View).rushHour,
	"truffle":     (*View).addTruffle,
	"cancel":      (*View).cancel,
	"cut-watches": (*View).cutWatches,
	"compact":     (*View).compact,
	"fail":        (*View).failUpdates,
	"slow":        (*View).slowDesk,
	"speed":       (*View).setSpeed,
	"pause":       (*View).pause,
	"step":        (*View).step,
	"resume":      (*View).resume,
	"scene":       (*View).startScene,
	"scene-next":  func(v *View, _ *http.Request) (string, error) { return v.scenes.next() },
	"scene-leave": func(v *View, _ *http.Request) (string, error) { return v.scenes.leave(), nil },
}

// serveAction runs a button. It answers JSON: {"message": ...} with 200,
// or {"error": ...} with 400 for bad input, 404 for an unknown button or
// order, 409 when there is nothing to act on, 500 otherwise.
func (v *View) serveAction(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	do, ok := actions[r.PathValue("action")]
	var msg string
	err := fmt.Errorf("no button %q", r.PathValue("action"))
	if ok {
		msg, err = do(v, r)
	}
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		w.WriteHeader(statusOf(err, ok))
		_ = json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
}

func statusOf(err error, known bool) int {
	var fe *FieldError
	switch {
	case !known, meta.IsNotFound(err):
		return http.StatusNotFound
	case errors.As(err, &fe), meta.IsInvalid(err):
		return http.StatusBadRequest
	case errors.Is(err, errNoOrder), errors.Is(err, errNoGate), errors.Is(err, errNoScene), errors.Is(err, errNothingHeld):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

func (v *View) place(r *http.Request) (string, error) {
	o, err := v.placeOne(r.Context(), r.FormValue("dish"), r.FormValue("section"))
	if err != nil {
		return "", err
	}
	return "placed " + o.Name, nil
}

func (v *View) placeVIP(r *http.Request) (string, error) {
	o, err := v.placeOne(r.Context(), r.FormValue("dish"), "vip")
	if err != nil {
		return "", err
	}
	return "placed " + o.Name + " for a VIP table", nil
}

// rushHour places RushHourOrders orders at once, with the rail's token
// bucket made the bottleneck until it has admitted them all (as the rush
// scene does): the tickets back up on the rail, not at the stations.
func (v *View) rushHour(r *http.Request) (string, error) {
	restore := v.limitRail()
	keys := make([]string, 0, RushHourOrders)
	for i := range RushHourOrders {
		o, err := v.placeOne(r.Context(), "", "")
		if err != nil {
			go v.restoreWhenAdmitted(keys, restore)
			return "", fmt.Errorf("rush hour stopped after %d orders: %w", i, err)
		}
		keys = append(keys, joinKey(o.Namespace, o.Name))
	}
	go v.restoreWhenAdmitted(keys, restore)
	return fmt.Sprintf("rush hour: %d orders placed; the rail admits %g new tickets a second until all are on it", RushHourOrders, rushPerSecond), nil
}

// placeOne has the waiter place an order: dish (random when empty) for a
// table in section (main or terrace at random when empty).
func (v *View) placeOne(ctx context.Context, dish, section string) (*kitchen.Order, error) {
	if dish == "" {
		dish = v.randomDish()
	}
	table := 5 + rand.IntN(16)
	switch {
	case section == "vip":
		table = 1 + rand.IntN(4)
	case section == "":
		section = []string{"main", "terrace"}[rand.IntN(2)]
	}
	for {
		v.mu.Lock()
		v.names++
		name := fmt.Sprintf("order-%03d", v.names)
		v.mu.Unlock()
		o := &kitchen.Order{ObjectMeta: meta.ObjectMeta{Name: name},
			Spec: kitchen.OrderSpec{Table: table, Section: section, Items: []kitchen.OrderItem{{Dish: dish, Quantity: 1}}}}
		key := joinKey(v.r.Namespace, name)
		v.m.placing(key, fmt.Sprintf("table %d (%s) orders %s", table, section, dish))
		out, err := v.r.Waiter.Place(ctx, o)
		if meta.IsAlreadyExists(err) {
			v.m.refused(key, "") // the name was taken (by kubectl?): try the next
			continue
		}
		if err != nil {
			v.m.refused(key, err.Error())
			return nil, err
		}
		return out, nil
	}
}

// randomDish picks a dish from the runner's menu.
func (v *View) randomDish() string {
	var names []string
	for _, d := range v.r.Runner.Dishes.GetIndexer().List() {
		names = append(names, d.Name)
	}
	if len(names) == 0 {
		return kitchen.DefaultMenu()[0].Name
	}
	slices.Sort(names)
	return names[rand.IntN(len(names))]
}

func (v *View) addTruffle(r *http.Request) (string, error) {
	name, err := v.target(r)
	if err != nil {
		return "", err
	}
	if _, err := v.r.Waiter.AddExtra(r.Context(), name, 0, "black-truffle"); err != nil {
		return "", err
	}
	return "black truffle added to " + name, nil
}

func (v *View) cancel(r *http.Request) (string, error) {
	name, err := v.target(r)
	if err != nil {
		return "", err
	}
	if err := v.r.Waiter.Cancel(r.Context(), name); err != nil {
		return "", err
	}
	return name + " cancelled: the table left", nil
}

// target is the order a button acts on: the form's "order", else the
// newest open one.
func (v *View) target(r *http.Request) (string, error) {
	if name := r.FormValue("order"); name != "" {
		return name, nil
	}
	if name := v.m.newestOpen(v.r.Namespace); name != "" {
		return name, nil
	}
	return "", errNoOrder
}

func (v *View) cutWatches(*http.Request) (string, error) {
	v.r.Server.CloseWatches()
	v.m.note(stageAPIServer, "every watch cut at rv "+v.r.Server.ResourceVersion(), "watch")
	return "every watch cut: the runner watches again from the last resourceVersion it saw", nil
}

func (v *View) compact(*http.Request) (string, error) {
	// A compaction alone expires only the resourceVersions older than the
	// last write: a runner that saw that write watches on unharmed. The
	// button shows the case that hurts — the runner's version was
	// compacted away — by answering its next watches 410, as the server
	// would, then cutting the watches it has.
	v.r.Server.CompactHistory()
	v.r.Server.FailNext(apiserver.VerbWatch, runnerWatches,
		meta.NewResourceExpired("too old resource version: the history was compacted (the live view's button)"))
	v.r.Server.CloseWatches()
	v.m.note(stageAPIServer, "history compacted at rv "+v.r.Server.ResourceVersion()+", every watch cut", "relist")
	return "history compacted and watches cut: the runner's next watch gets 410 Expired, so it lists again", nil
}

func (v *View) failUpdates(r *http.Request) (string, error) {
	n, err := intField(r, "n", 3, 0, 100)
	if err != nil {
		return "", err
	}
	v.r.Server.FailNext(apiserver.VerbUpdate, n,
		meta.NewTooManyRequests("the front desk is overwhelmed (a fault injected by the live view)", 0))
	return fmt.Sprintf("the next %d updates will fail with 429 Too Many Requests", n), nil
}

func (v *View) slowDesk(r *http.Request) (string, error) {
	ms, err := intField(r, "ms", 100, 0, 2000)
	if err != nil {
		return "", err
	}
	d := time.Duration(ms) * time.Millisecond
	v.r.Server.SetLatency(d)
	v.mu.Lock()
	v.slow = d
	v.mu.Unlock()
	if d == 0 {
		return "the front desk answers at once again", nil
	}
	return fmt.Sprintf("the front desk now takes %v per request", d), nil
}

func (v *View) setSpeed(r *http.Request) (string, error) {
	ms, err := intField(r, "minute", 100, 1, 5000)
	if err != nil {
		return "", err
	}
	v.r.Clock.SetMinute(time.Duration(ms) * time.Millisecond)
	return fmt.Sprintf("one kitchen minute now lasts %d ms", ms), nil
}

var errNothingHeld = errors.New("nothing is held: the kitchen is idle (place an order), or not paused")

func (v *View) pause(*http.Request) (string, error) {
	if v.gate == nil {
		return "", errNoGate
	}
	v.gate.Pause()
	v.kickFrame()
	return "paused: the kitchen waits at its next hand-off", nil
}

func (v *View) step(r *http.Request) (string, error) {
	if v.gate == nil {
		return "", errNoGate
	}
	id, err := intField(r, "id", 0, 0, math.MaxInt32)
	if err != nil {
		return "", err
	}
	h, ok := v.gate.Step(uint64(id))
	if !ok {
		return "", errNothingHeld
	}
	v.kickFrame()
	return fmt.Sprintf("stepped #%d: %s", h.ID, h.Text), nil
}

func (v *View) resume(*http.Request) (string, error) {
	if v.gate == nil {
		return "", errNoGate
	}
	if st := v.scenes.state(); st != nil && (st.Phase == "setting" || st.Phase == "held") {
		v.scenes.leave()
	}
	v.gate.Resume()
	v.kickFrame()
	return "resumed: the kitchen runs on", nil
}

func (v *View) startScene(r *http.Request) (string, error) {
	return v.scenes.start(r.Context(), r.FormValue("name"))
}

// intField reads a whole number from the form, def when absent.
func intField(r *http.Request, name string, def, lo, hi int) (int, error) {
	s := r.FormValue(name)
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, &FieldError{Field: name, Reason: fmt.Sprintf("want a whole number from %d to %d, got %q", lo, hi, s)}
	}
	return n, nil
}
