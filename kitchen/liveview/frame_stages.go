package liveview

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
)

// index returns how many orders the runner's cache holds, and its
// section index: each section with the orders filed under it.
func (v *View) index() (int, []indexRow) {
	x := v.r.Runner.Orders.GetIndexer()
	var rows []indexRow
	for _, value := range slices.Sorted(slices.Values(x.ListIndexFuncValues(kitchen.OrderSectionIndex))) {
		keys, err := x.IndexKeys(kitchen.OrderSectionIndex, value)
		if err != nil || len(keys) == 0 {
			continue
		}
		slices.Sort(keys)
		row := indexRow{Value: value, Count: len(keys)}
		for _, k := range keys[max(0, len(keys)-4):] {
			_, name := splitKey(k)
			row.Names = append(row.Names, name)
		}
		rows = append(rows, row)
	}
	return len(x.ListKeys()), rows
}

// stations lists the cooks in the runner's cache by station.
func (v *View) stations() []station {
	busy := v.r.Stations.Busy()
	byName := map[string]*station{}
	for name := range kitchen.DefaultStations() {
		byName[name] = &station{Name: name, Cooks: []cookEntry{}}
	}
	for _, c := range v.r.Runner.Cooks.GetIndexer().List() {
		s := byName[c.Spec.Station]
		if s == nil {
			s = &station{Name: c.Spec.Station, Cooks: []cookEntry{}}
			byName[c.Spec.Station] = s
		}
		if c.Status.Phase == kitchen.CookDone || c.Status.Phase == kitchen.CookStopped {
			continue
		}
		s.Cooks = append(s.Cooks, cookEntry{Name: c.Name, Order: c.Spec.Order, Dish: c.Spec.Dish, Phase: cookPhase(c.Status.Phase)})
	}
	out := make([]station, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		s := byName[name]
		s.Busy = busy[name]
		slices.SortFunc(s.Cooks, func(a, b cookEntry) int { return cmp.Compare(a.Name, b.Name) })
		out = append(out, *s)
	}
	return out
}

// sample adds a point to the chart: the rail's depth and backlog, and the
// chef's mean reconcile time since the last point (from its metrics, so
// it needs no trace).
func (v *View) sample() {
	h := v.r.ChefMetrics().ReconcileTime
	backlog := v.m.backlog()
	v.mu.Lock()
	defer v.mu.Unlock()
	s := sample{At: time.Since(v.m.start).Milliseconds(), Depth: v.r.Rail.Len(), Backlog: backlog}
	if n := float64(h.Count) - v.lastHist[0]; n > 0 {
		s.ReconcileMs = (h.Sum - v.lastHist[1]) / n * 1000
	}
	v.lastHist = [2]float64{float64(h.Count), h.Sum}
	v.chart = append(v.chart, s)
	if len(v.chart) > chartPoints {
		v.chart = slices.Delete(v.chart, 0, len(v.chart)-chartPoints)
	}
}

// backlog counts the tickets on the rail that are not ready yet.
func (m *model) backlog() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, t := range m.tickets {
		if t.State == "token" || t.State == "delayed" || t.State == "rate-limited" {
			n++
		}
	}
	return n
}
