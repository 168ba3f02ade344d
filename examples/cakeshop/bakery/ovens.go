package bakery

import "fmt"

// scaleOvens is the cluster autoscaler next to the HPA (启用备用烤箱, Node
// 扩容): bakers are the pods, ovens the nodes they need. When bakers on
// duty wait for an oven — pods pending for lack of room — spare ovens are
// turned on, up to MaxOvens; when nobody waits and an oven stands idle, the
// newest spare is turned off (after the cake in it, if any).
func (a *Autoscaler) scaleOvens() {
	if a.Ovens == nil {
		return
	}
	busy, waiting, total := a.Ovens.Load()
	a.mu.Lock()
	defer a.mu.Unlock()
	defer func() { a.ovens = append(a.ovens, total) }() // after this look's change
	switch {
	case waiting > 0 && total < a.MaxOvens:
		n := min(waiting, a.MaxOvens-total)
		for range n {
			a.spares++
			a.Ovens.Hire(fmt.Sprintf("spare-oven-%02d", a.spares))
		}
		total += n
		a.Journal.Say("cluster-autoscaler", "", "ovens-up", "%d baker(s) wait for an oven → turn on %d spare oven(s): %d ovens",
			waiting, n, total)
	case waiting == 0 && a.spares > 0 && busy < total:
		a.Ovens.Dismiss(fmt.Sprintf("spare-oven-%02d", a.spares))
		a.spares--
		total--
		a.Journal.Say("cluster-autoscaler", "", "ovens-down", "an oven stands idle → turn off a spare: %d spare(s) left", a.spares)
	}
}

// OvenCounts returns the number of ovens seen at each look, in order.
func (a *Autoscaler) OvenCounts() []int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]int(nil), a.ovens...)
}
