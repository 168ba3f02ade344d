package liveview

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
)

// A guided scene is one lesson the pipeline can show on the real
// kitchen. It asks its question first (the page shows the choices), then
// sets the kitchen up and runs it until the gate holds the scene's key
// hand-off; there it pauses, and the learner steps that one hand-off to
// see the answer; then it runs to its end and explains, naming the tour
// chapter and the go doc to read next.
type scene struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Question string   `json:"question"`
	Choices  []string `json:"choices"`
	Answer   int      `json:"-"` // the right choice, told once the scene is done
	Explain  string   `json:"-"`
	Tour     string   `json:"tour"`    // the command that opens its tour chapter, or "README.md"
	Chapter  string   `json:"chapter"` // the title of that chapter, or of the README's section
	Docs     []string `json:"docs"`    // go doc commands
	// setup arranges the kitchen and returns the scene's key hand-off: the
	// engine waits until the gate holds it, then pauses the gate.
	setup func(ctx context.Context, s *sceneRun) (func(Hold) bool, error)
	// finish runs once the key hand-off has been stepped, until the
	// scene's end; the engine then lets the kitchen run on.
	finish func(ctx context.Context, s *sceneRun) error
}

// sceneState is what the page shows of the scene under way, or the last.
type sceneState struct {
	ID      string   `json:"id"`
	Run     int      `json:"run"`
	Phase   string   `json:"phase"` // "setting", "held", "running", "done", "failed"
	Key     *Hold    `json:"key,omitempty"`
	Said    []string `json:"said"`
	Answer  int      `json:"answer"` // -1 until done
	Explain string   `json:"explain,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// sceneTimeout bounds each wait of a scene: a kitchen that does not get
// there in this long is stuck, and the scene says so.
const sceneTimeout = 30 * time.Second

// scenes runs at most one scene at a time.
type scenes struct {
	v   *View
	all []*scene

	mu   sync.Mutex // guards the fields below
	runs int
	cur  *sceneRun
}

// sceneRun is one run of a scene.
type sceneRun struct {
	v      *View
	def    *scene
	next   chan struct{} // the learner stepped the key hand-off
	cancel context.CancelFunc

	// data is what the scene's setup leaves for its finish; cleanups run
	// when the run ends. Both belong to the run's goroutine.
	data     any
	cleanups []func()

	mu    sync.Mutex // guards state
	state sceneState
}

// cleanup runs f when the scene's run ends.
func (s *sceneRun) cleanup(f func()) { s.cleanups = append(s.cleanups, f) }

func newScenes(v *View) *scenes { return &scenes{v: v, all: catalogue()} }

// state returns the current scene's state, or nil.
func (ss *scenes) state() *sceneState {
	ss.mu.Lock()
	cur := ss.cur
	ss.mu.Unlock()
	if cur == nil {
		return nil
	}
	cur.mu.Lock()
	defer cur.mu.Unlock()
	st := cur.state
	st.Said = slices.Clone(st.Said)
	return &st
}

// start begins the scene id, ending the one under way.
func (ss *scenes) start(ctx context.Context, id string) (string, error) {
	i := slices.IndexFunc(ss.all, func(s *scene) bool { return s.ID == id })
	if i < 0 {
		return "", &FieldError{Field: "scene", Reason: fmt.Sprintf("no scene %q", id)}
	}
	if ss.v.gate == nil {
		return "", errNoGate
	}
	ss.mu.Lock()
	if ss.cur != nil {
		ss.cur.cancel()
	}
	ss.runs++
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	run := &sceneRun{v: ss.v, def: ss.all[i], next: make(chan struct{}, 1), cancel: cancel,
		state: sceneState{ID: id, Run: ss.runs, Phase: "setting", Answer: -1, Said: []string{}}}
	ss.cur = run
	ss.mu.Unlock()
	go func() {
		<-ss.v.done
		cancel()
	}()
	go run.play(ctx)
	return "scene: " + ss.all[i].Title, nil
}

// next steps the current scene's key hand-off.
func (ss *scenes) next() (string, error) {
	ss.mu.Lock()
	cur := ss.cur
	ss.mu.Unlock()
	if cur == nil {
		return "", errNoScene
	}
	cur.mu.Lock()
	phase := cur.state.Phase
	cur.mu.Unlock()
	if phase != "held" {
		return "", fmt.Errorf("%w: the scene is %s", errNoScene, phase)
	}
	select {
	case cur.next <- struct{}{}:
	default:
	}
	return "stepped the key hand-off", nil
}

// leave ends the current scene and lets the kitchen run on.
func (ss *scenes) leave() string {
	ss.mu.Lock()
	cur := ss.cur
	ss.cur = nil
	ss.mu.Unlock()
	if cur != nil {
		cur.cancel()
	}
	ss.v.gate.Resume()
	return "left the scene: the kitchen runs on"
}

var (
	errNoGate  = errors.New("this kitchen has no gate: open it with liveview.Gate.Pace and serve it WithGate")
	errNoScene = errors.New("no scene is waiting for its key hand-off")
)

// play runs the scene: setup, the key hand-off held, the learner's step,
// finish. Whatever happens, the kitchen runs on at the end.
func (s *sceneRun) play(ctx context.Context) {
	g := s.v.gate
	defer s.v.kickFrame()
	defer func() {
		for _, f := range s.cleanups {
			f()
		}
	}()
	err := s.arrive(ctx)
	if err == nil {
		select {
		case <-s.next:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err == nil {
		s.mu.Lock()
		key := s.state.Key
		s.state.Phase = "running"
		s.mu.Unlock()
		g.Step(key.ID) // if the learner stepped it with the gate's own button, nothing is held under its number
		s.v.kickFrame()
		err = s.def.finish(ctx, s)
	}
	g.Resume()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case errors.Is(err, context.Canceled):
		s.state.Phase, s.state.Error = "failed", "left before its end"
	case err != nil:
		s.state.Phase, s.state.Error = "failed", err.Error()
	default:
		s.state.Phase, s.state.Answer, s.state.Explain = "done", s.def.Answer, s.def.Explain
	}
}

// arrive sets the scene up and waits until the gate holds its key
// hand-off, then pauses the kitchen there.
func (s *sceneRun) arrive(ctx context.Context) error {
	g := s.v.gate
	g.Resume()
	key, err := s.def.setup(ctx, s)
	if err != nil {
		return err
	}
	var h Hold
	err = s.until(ctx, "the key hand-off", func() bool {
		var ok bool
		h, ok = g.holding(key)
		return ok
	})
	if err != nil {
		return err
	}
	g.Pause()
	s.mu.Lock()
	s.state.Phase, s.state.Key = "held", &h
	s.mu.Unlock()
	s.v.kickFrame()
	return nil
}

// say tells what the scene did: on the page's pipeline notes and in the
// scene's panel.
func (s *sceneRun) say(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	s.v.m.note(stageWaiter, "scene: "+text, "scene")
	s.mu.Lock()
	s.state.Said = append(s.state.Said, text)
	s.mu.Unlock()
}

// until waits for cond, looking every few milliseconds, for at most
// sceneTimeout; what names the wait in the error.
func (s *sceneRun) until(ctx context.Context, what string, cond func() bool) error {
	deadline := time.NewTimer(sceneTimeout)
	defer deadline.Stop()
	look := time.NewTicker(10 * time.Millisecond)
	defer look.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return fmt.Errorf("the scene waited %v for %s", sceneTimeout, what)
		case <-look.C:
		}
	}
	return nil
}

// serveScenes answers the scenes the page offers, in order.
func (v *View) serveScenes(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(mustJSON(v.scenes.all))
}
