package bakery

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// HandedOverAnnotation marks a stale copy of an order that the dispatcher
// moved to another cluster: its baker throws the cake away without a
// refund, since the order lives on elsewhere.
const HandedOverAnnotation = "bakery.example.com/handed-over-to"

// Dispatcher is the central dispatch (中央调度系统) of a chain with several
// clusters, like Cluster API or Karmada placing workloads: it assigns each
// order to the healthy cluster with the fewest open orders, keeps a backup
// of what it assigned (like Velero), and when a cluster fails, restores
// that cluster's open orders on a neighbour (隔壁分店应急接单). It is safe
// for concurrent use.
type Dispatcher struct {
	Journal *Journal
	Till    *Till
	names   []string
	servers map[string]*apiserver.Server

	mu       sync.Mutex        // guards the maps below
	assigned map[string]string // order key → cluster
	backup   map[string]*Cake  // order key → last copy seen
	moved    map[string]string // order key → the cluster it was moved away from
}

// NewDispatcher returns a dispatcher over the named clusters.
func NewDispatcher(j *Journal, till *Till, clusters map[string]*apiserver.Server) *Dispatcher {
	d := &Dispatcher{Journal: j, Till: till, servers: clusters,
		assigned: map[string]string{}, backup: map[string]*Cake{}, moved: map[string]string{}}
	for name := range clusters {
		d.names = append(d.names, name)
	}
	slices.Sort(d.names)
	return d
}

// Assign places c on the healthy cluster with the fewest open orders.
func (d *Dispatcher) Assign(ctx context.Context, c *Cake) error {
	best, load := "", -1
	for _, name := range d.names {
		n, err := d.openOrders(ctx, name)
		if err != nil {
			continue // unhealthy: skip
		}
		if load < 0 || n < load {
			best, load = name, n
		}
	}
	if best == "" {
		return fmt.Errorf("dispatcher: no healthy cluster for %s", key(c))
	}
	return d.place(ctx, best, c, fmt.Sprintf("%d open orders there", load))
}

func (d *Dispatcher) place(ctx context.Context, cluster string, c *Cake, why string) error {
	placed, err := OrderDesk{Client: client.New[*Cake](d.servers[cluster]), Till: nil}.Place(ctx, c)
	if err != nil {
		return err
	}
	d.mu.Lock()
	_, seen := d.assigned[key(c)]
	d.assigned[key(c)], d.backup[key(c)] = cluster, placed
	d.mu.Unlock()
	if !seen {
		d.Till.TakeDeposit(placed)
	}
	d.Journal.Say("dispatcher", key(c), "assigned", "%s → cluster %s (%s)", c.Name, cluster, why)
	return nil
}

// openOrders counts the orders on cluster that are not finished; it fails
// if the cluster's API server does.
func (d *Dispatcher) openOrders(ctx context.Context, cluster string) (int, error) {
	cakes, _, err := client.New[*Cake](d.servers[cluster]).List(ctx, meta.ListOptions{})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, c := range cakes {
		if c.Status.Phase != PhaseCompleted && c.Status.Phase != PhaseFailed {
			n++
		}
	}
	return n, nil
}

// Backup records the current state of every order on every healthy
// cluster, as a periodic Velero backup would.
func (d *Dispatcher) Backup(ctx context.Context) {
	for _, name := range d.names {
		cakes, _, err := client.New[*Cake](d.servers[name]).List(ctx, meta.ListOptions{})
		if err != nil {
			continue
		}
		d.mu.Lock()
		for _, c := range cakes {
			if d.assigned[key(c)] == name {
				d.backup[key(c)] = c
			}
		}
		d.mu.Unlock()
	}
	d.Journal.Say("dispatcher", "", "backup", "backup taken of every cluster's orders")
}

// Probe checks cluster's health; if it is down, its open orders (as of the
// last backup) are restored on the other healthy clusters. It returns how
// many orders moved.
func (d *Dispatcher) Probe(ctx context.Context, cluster string) (int, error) {
	if _, err := d.openOrders(ctx, cluster); err == nil {
		return 0, nil
	} else {
		d.Journal.Say("dispatcher", "", "down", "cluster %s does not answer (%v) → hand its open orders to a neighbour", cluster, err)
	}
	moved := 0
	for _, c := range d.openBackups(cluster) {
		d.mu.Lock()
		d.moved[key(c)] = cluster
		d.mu.Unlock()
		restored := &Cake{ObjectMeta: meta.ObjectMeta{Namespace: c.Namespace, Name: c.Name, Labels: c.Labels}, Spec: c.Spec}
		if err := d.assignExcept(ctx, cluster, restored); err != nil {
			return moved, err
		}
		moved++
	}
	return moved, nil
}

// openBackups returns the backed-up copies of the orders assigned to
// cluster that were not finished, sorted by key.
func (d *Dispatcher) openBackups(cluster string) []*Cake {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*Cake
	for k, c := range d.backup {
		if d.assigned[k] == cluster && c.Status.Phase != PhaseCompleted && c.Status.Phase != PhaseFailed {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b *Cake) int { return strings.Compare(key(a), key(b)) })
	return out
}

// assignExcept places c on the first healthy cluster other than down.
func (d *Dispatcher) assignExcept(ctx context.Context, down string, c *Cake) error {
	for _, name := range d.names {
		if name == down {
			continue
		}
		if _, err := d.openOrders(ctx, name); err == nil {
			return d.place(ctx, name, c, "restored from the backup; "+down+" is down")
		}
	}
	return fmt.Errorf("dispatcher: no healthy neighbour for %s", key(c))
}

// AssignedTo returns the keys of the orders assigned to cluster, sorted.
func (d *Dispatcher) AssignedTo(cluster string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var keys []string
	for k, c := range d.assigned {
		if c == cluster {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// CleanUp deletes, on a cluster that came back, the stale copies of the
// orders moved away from it, marked so that its baker refunds nothing. It
// returns how many copies are still held by the baker's finalizer: those
// its baker must clean up.
func (d *Dispatcher) CleanUp(ctx context.Context, cluster string) (pending int, err error) {
	d.mu.Lock()
	var keys []string
	for k, from := range d.moved {
		if from == cluster {
			keys = append(keys, k)
		}
	}
	d.mu.Unlock()
	slices.Sort(keys)
	cakes := client.New[*Cake](d.servers[cluster])
	for _, k := range keys {
		ns, name, _ := strings.Cut(k, "/")
		c, err := cakes.Namespace(ns).Get(ctx, name, meta.GetOptions{})
		if meta.IsNotFound(err) {
			continue
		}
		if err != nil {
			return pending, err
		}
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[HandedOverAnnotation] = d.assignedTo(k)
		if _, err := cakes.Namespace(ns).Update(ctx, c, meta.UpdateOptions{}); err != nil {
			return pending, err
		}
		if err := cakes.Namespace(ns).Delete(ctx, name, meta.DeleteOptions{}); err != nil {
			return pending, err
		}
		d.Journal.Say("dispatcher", k, "cleanup", "%s: delete the stale copy on %s (handed over to %s)", name, cluster, d.assignedTo(k))
		if len(c.Finalizers) > 0 {
			pending++
		}
	}
	return pending, nil
}

func (d *Dispatcher) assignedTo(k string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.assigned[k]
}
