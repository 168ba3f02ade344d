package record

import "container/list"

// lru is a map that keeps its max most recently used keys, like the
// golang/groupcache lru client-go's correlator uses. Not safe for
// concurrent use.
type lru[V any] struct {
	max   int
	order *list.List // of *lruEntry[V], most recent first
	items map[string]*list.Element
}

type lruEntry[V any] struct {
	key   string
	value V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, order: list.New(), items: map[string]*list.Element{}}
}

// get returns the value of key and marks it used.
func (l *lru[V]) get(key string) (V, bool) {
	if e, ok := l.items[key]; ok {
		l.order.MoveToFront(e)
		return e.Value.(*lruEntry[V]).value, true
	}
	var zero V
	return zero, false
}

// add sets key's value, evicting the least recently used key if full.
func (l *lru[V]) add(key string, v V) {
	if e, ok := l.items[key]; ok {
		e.Value.(*lruEntry[V]).value = v
		l.order.MoveToFront(e)
		return
	}
	l.items[key] = l.order.PushFront(&lruEntry[V]{key: key, value: v})
	if l.order.Len() > l.max {
		last := l.order.Back()
		l.order.Remove(last)
		delete(l.items, last.Value.(*lruEntry[V]).key)
	}
}
