package compare

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/kitchensync/kitchensync/apiserver/apiservertest"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/informer"
	"github.com/kitchensync/kitchensync/store"
	"k8s.io/client-go/tools/cache"

	"github.com/kitchensync/kitchensync/compare/internal/adapt"
	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

// fifoImpl maps the generated DeltaFIFO steps onto one implementation and
// its consumer's cache (the known objects).
type fifoImpl struct {
	add, update, del func(ops.Object) error
	replace          func([]ops.Object) error
	resync           func() error
	// pop blocks until it pops a key, applies the deltas to the cache as
	// an informer does, and describes what it popped.
	pop       func() (string, error)
	hasSynced func() bool
	close     func()
	cache     func() []adapt.Summary
}

// deltaLine describes one delta: type, key, resourceVersion, and for a
// tombstone the key it carries and whether it has a last known object.
func deltaLine(typ string, s adapt.Summary, tombKey string, tomb bool) string {
	if tomb {
		return fmt.Sprintf("%s tombstone(%s) last=%s@%s%v", typ, tombKey, s.Key, s.RV, s.Tags)
	}
	return fmt.Sprintf("%s %s@%s%v", typ, s.Key, s.RV, s.Tags)
}

// ksMarkTags and cgMarkTags are the transform both FIFOs get on odd seeds: it
// appends "t" to spec.tags, so that the traces show which deltas were
// transformed (and that none was transformed twice).
func ksMarkTags(w *apiservertest.Widget) (*apiservertest.Widget, error) {
	w = meta.DeepCopy(w)
	w.Spec.Tags = append(w.Spec.Tags, "t")
	return w, nil
}

func cgMarkTags(obj any) (any, error) {
	w := obj.(*adapt.Widget).DeepCopyObject().(*adapt.Widget)
	w.Spec.Tags = append(w.Spec.Tags, "t")
	return w, nil
}

// ksAnyFIFO is what the traces drive: an informer.DeltaFIFO or RealFIFO.
type ksAnyFIFO interface {
	informer.ReflectorStore
	Pop(context.Context, informer.PopProcessFunc[*apiservertest.Widget]) (informer.Deltas[*apiservertest.Widget], error)
	HasSynced() bool
	Close()
}

// ksFIFO is kitchensync's DeltaFIFO or, with inOrder, its RealFIFO.
func ksFIFO(inOrder, transform bool) fifoImpl {
	known := store.NewIndexer[*apiservertest.Widget](store.MetaNamespaceKeyFunc, nil)
	opts := informer.DeltaFIFOOptions[*apiservertest.Widget]{KnownObjects: known}
	if transform {
		opts.Transform = ksMarkTags
	}
	var f ksAnyFIFO
	if inOrder {
		f = informer.NewRealFIFO(informer.RealFIFOOptions[*apiservertest.Widget]{KnownObjects: known, Transform: opts.Transform})
	} else {
		f = informer.NewDeltaFIFO(opts)
	}
	return fifoImpl{
		add:    func(o ops.Object) error { return f.Add(adapt.KS(o)) },
		update: func(o ops.Object) error { return f.Update(adapt.KS(o)) },
		del:    func(o ops.Object) error { return f.Delete(adapt.KS(o)) },
		replace: func(list []ops.Object) error {
			objs := make([]meta.Object, len(list))
			for i, o := range list {
				objs[i] = adapt.KS(o)
			}
			return f.Replace(objs, "")
		},
		resync: f.Resync,
		pop: func() (string, error) {
			var line string
			_, err := f.Pop(context.Background(), func(key string, deltas informer.Deltas[*apiservertest.Widget], initial bool) error {
				parts := []string{fmt.Sprintf("pop %s initial=%v:", key, initial)}
				for _, d := range deltas {
					s := adapt.SummarizeKS(d.Object)
					if d.Tombstone != nil {
						parts = append(parts, deltaLine(string(d.Type), s, d.Tombstone.Key, true))
					} else {
						parts = append(parts, deltaLine(string(d.Type), s, "", false))
					}
					if d.Type == informer.Deleted {
						known.DeleteByKey(key)
					} else if err := known.Add(d.Object); err != nil {
						return err
					}
				}
				line = strings.Join(parts, " | ")
				return nil
			})
			return line, err
		},
		hasSynced: f.HasSynced,
		close:     f.Close,
		cache: func() []adapt.Summary {
			var out []adapt.Summary
			for _, w := range known.List() {
				out = append(out, adapt.SummarizeKS(w))
			}
			return sortSummaries(out)
		},
	}
}

// sortedKnown lists a client-go indexer's keys sorted. client-go's
// DeltaFIFO queues Replace's tombstones for cached keys in the order the
// known objects list them, which for cache.Indexer is Go map order (so
// random); kitchensync's store lists keys sorted. Sorting here makes
// client-go deterministic without changing any rule it applies.
type sortedKnown struct{ cache.Indexer }

func (s sortedKnown) ListKeys() []string {
	keys := s.Indexer.ListKeys()
	slices.Sort(keys)
	return keys
}

// cgQueue is what the harness needs of client-go's DeltaFIFO and RealFIFO.
type cgFIFOQueue interface {
	Add(any) error
	Update(any) error
	Delete(any) error
	Replace([]any, string) error
	Resync() error
	Pop(cache.PopProcessFunc) (any, error)
	HasSynced() bool
	Close()
}

func cgFIFO(transform bool) fifoImpl {
	known := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})
	opts := cache.DeltaFIFOOptions{KnownObjects: sortedKnown{known}, EmitDeltaTypeReplaced: true}
	if transform {
		opts.Transformer = cgMarkTags
	}
	f := cache.NewDeltaFIFOWithOptions(opts)
	return cgFIFOImpl(f, known)
}

// cgRealFIFO is client-go's RealFIFO with one event per delta (not the
// atomic ReplacedAll/SyncAll events the informer uses since v0.36).
func cgRealFIFO(transform bool) fifoImpl {
	known := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})
	opts := cache.RealFIFOOptions{KnownObjects: sortedKnown{known}}
	if transform {
		opts.Transformer = cgMarkTags
	}
	f := cache.NewRealFIFOWithOptions(opts)
	return cgFIFOImpl(f, known)
}

func cgFIFOImpl(f cgFIFOQueue, known cache.Indexer) fifoImpl {
	return fifoImpl{
		add:    func(o ops.Object) error { return f.Add(adapt.CG(o)) },
		update: func(o ops.Object) error { return f.Update(adapt.CG(o)) },
		del:    func(o ops.Object) error { return f.Delete(adapt.CG(o)) },
		replace: func(list []ops.Object) error {
			objs := make([]any, len(list))
			for i, o := range list {
				objs[i] = adapt.CG(o)
			}
			return f.Replace(objs, "")
		},
		resync: f.Resync,
		pop: func() (string, error) {
			var line string
			_, err := f.Pop(func(obj any, initial bool) error {
				deltas := obj.(cache.Deltas)
				key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(deltas.Newest().Object)
				parts := []string{fmt.Sprintf("pop %s initial=%v:", key, initial)}
				for _, d := range deltas {
					if tomb, ok := d.Object.(cache.DeletedFinalStateUnknown); ok {
						parts = append(parts, deltaLine(string(d.Type), adapt.SummarizeCG(tomb.Obj), tomb.Key, true))
					} else {
						parts = append(parts, deltaLine(string(d.Type), adapt.SummarizeCG(d.Object), "", false))
					}
					if d.Type == cache.Deleted {
						if err := known.Delete(d.Object); err != nil {
							return err
						}
					} else if err := known.Add(d.Object); err != nil {
						return err
					}
				}
				line = strings.Join(parts, " | ")
				return nil
			})
			return line, err
		},
		hasSynced: f.HasSynced,
		close:     f.Close,
		cache: func() []adapt.Summary {
			var out []adapt.Summary
			for _, w := range known.List() {
				out = append(out, adapt.SummarizeCG(w))
			}
			return sortSummaries(out)
		},
	}
}

// runFIFO plays seq on f and returns the trace: every error, every pop
// with its deltas, every HasSynced transition, and the final cache. As in
// the workqueue harness, Pop runs on a goroutine and a Pop on an empty
// FIFO waits until a later step queues something. Inside a synctest bubble.
func runFIFO(f fifoImpl, seq []ops.FIFOOp) []string {
	var trace []string
	var pending chan string
	synced := false
	collect := func(i int) {
		if pending == nil {
			return
		}
		select {
		case line := <-pending:
			trace = append(trace, fmt.Sprintf("%d: %s", i, line))
			pending = nil
		default:
		}
	}
	for i, op := range seq {
		var err error
		switch op.Kind {
		case ops.FAdd:
			err = f.add(op.Obj)
		case ops.FUpdate:
			err = f.update(op.Obj)
		case ops.FDelete:
			err = f.del(op.Obj)
		case ops.FReplace:
			err = f.replace(op.List)
		case ops.FResync:
			err = f.resync()
		case ops.FPop:
			if pending == nil {
				ch := make(chan string, 1)
				go func() {
					line, err := f.pop()
					if err != nil {
						line += fmt.Sprintf(" error=%v", err != nil)
					}
					ch <- line
				}()
				pending = ch
			}
		}
		if err != nil {
			trace = append(trace, fmt.Sprintf("%d: error %v", i, err))
		}
		synctest.Wait()
		collect(i)
		if op.Kind == ops.FPop && pending != nil {
			trace = append(trace, fmt.Sprintf("%d: waiting", i))
		}
		if s := f.hasSynced(); s != synced {
			synced = s
			trace = append(trace, fmt.Sprintf("%d: synced=%v", i, s))
		}
	}
	f.close()
	synctest.Wait()
	if pending != nil {
		trace = append(trace, "closed: "+<-pending)
	}
	for _, s := range f.cache() {
		trace = append(trace, fmt.Sprintf("cache %s@%s", s.Key, s.RV))
	}
	return trace
}

// TestDeltaFIFOMatchesClientGo feeds both DeltaFIFOs the same reflector-like
// sequences (adds, updates, deletes, relists after missed changes,
// resyncs, pops) and compares every popped key with its full delta list
// (type, key, resourceVersion, tombstones), isInInitialList, the HasSynced
// transitions and the consumer's final cache.
//
// Every other seed runs with a transform on both sides, which must be
// applied once to each added, updated and replaced object and never to
// Sync deltas or tombstones.
func TestDeltaFIFOMatchesClientGo(t *testing.T) {
	tombstones := 0
	for seed := range seeds(t, 3000) {
		seq := ops.FIFOOps(rand.New(rand.NewPCG(seed, 17)), 60, 8)
		transform := seed%2 == 1
		var want, got []string
		synctest.Test(t, func(t *testing.T) {
			want = runFIFO(cgFIFO(transform), seq)
			got = runFIFO(ksFIFO(false, transform), seq)
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seed %d: trace differs (-client-go +kitchensync):\n%s\nsequence:\n%s", seed, diff, formatOps(seq))
		}
		for _, line := range want {
			tombstones += strings.Count(line, "tombstone")
		}
	}
	if tombstones == 0 {
		t.Fatal("no sequence made a tombstone: the generator is broken")
	}
	t.Logf("%d tombstones compared", tombstones)
}

// TestInOrderDeltaFIFOMatchesRealFIFO compares kitchensync's RealFIFO
// (what Options.Queue = QueueInOrder selects) with client-go's RealFIFO, one
// delta per Pop, on the same sequences (with a transform on odd seeds).
func TestInOrderDeltaFIFOMatchesRealFIFO(t *testing.T) {
	for seed := range seeds(t, 3000) {
		seq := ops.FIFOOps(rand.New(rand.NewPCG(seed, 23)), 60, 8)
		transform := seed%2 == 1
		var want, got []string
		synctest.Test(t, func(t *testing.T) {
			want = runFIFO(cgRealFIFO(transform), seq)
			got = runFIFO(ksFIFO(true, transform), seq)
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("seed %d: trace differs (-client-go +kitchensync):\n%s\nsequence:\n%s", seed, diff, formatOps(seq))
		}
	}
}
