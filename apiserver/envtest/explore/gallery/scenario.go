package gallery

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/envtest/explore"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Namespace is where the gallery's workloads write.
const Namespace = "default"

// Scenario returns the gallery's scenario for controller c: the kinds,
// [Workload], and the invariant [OneChildPerParent].
func Scenario(c explore.Controller) explore.Scenario {
	return explore.Scenario{
		Kinds:       Kinds(),
		Controllers: []explore.Controller{c},
		Workload:    Workload(),
		Invariants:  []explore.Invariant{OneChildPerParent()},
	}
}

// Workload is eight steps by users: three parents come, change versions,
// and two of them go.
func Workload() []explore.Step {
	return []explore.Step{
		Create("p1", "v1"),
		Create("p2", "v1"),
		SetVersion("p1", "v2"),
		Delete("p2"),
		Create("p3", "v1"),
		SetVersion("p1", "v3"),
		SetVersion("p3", "v2"),
		Delete("p1"),
	}
}

// Busy is a workload of n steps that cycles through three parents:
// create, change the version twice, delete, and again.
func Busy(n int) []explore.Step {
	var steps []explore.Step
	for i := 0; len(steps) < n; i++ {
		name := fmt.Sprintf("p%d", i%3+1)
		switch (i / 3) % 4 {
		case 0:
			steps = append(steps, Create(name, "v1"))
		case 1:
			steps = append(steps, SetVersion(name, "v2"))
		case 2:
			steps = append(steps, SetVersion(name, "v3"))
		case 3:
			steps = append(steps, Delete(name))
		}
	}
	return steps
}

func parents(api client.Interface) *client.Client[*Parent] {
	return client.New[*Parent](api).Namespace(Namespace)
}

// Create is a step that creates parent name asking for version.
func Create(name, version string) explore.Step {
	return explore.Step{Name: "create parent " + name + " " + version, Do: func(ctx context.Context, api client.Interface) error {
		_, err := parents(api).Create(ctx, NewParent(Namespace, name, version), meta.CreateOptions{})
		return err
	}}
}

// SetVersion is a step that changes parent name's version.
func SetVersion(name, version string) explore.Step {
	return explore.Step{Name: "set parent " + name + " to " + version, Do: func(ctx context.Context, api client.Interface) error {
		return client.RetryOnConflict(client.DefaultRetry, func() error {
			p, err := parents(api).Get(ctx, name, meta.GetOptions{})
			if err != nil {
				return err
			}
			p.Spec.Version = version
			_, err = parents(api).Update(ctx, p, meta.UpdateOptions{})
			return err
		})
	}}
}

// Delete is a step that deletes parent name.
func Delete(name string) explore.Step {
	return explore.Step{Name: "delete parent " + name, Do: func(ctx context.Context, api client.Interface) error {
		return parents(api).Delete(ctx, name, meta.DeleteOptions{})
	}}
}

// OneChildPerParent is the invariant that no parent ever has two
// children at once.
func OneChildPerParent() explore.Invariant {
	return explore.Invariant{Name: "one child per parent", Check: func(ctx context.Context, api client.Interface) error {
		kids, _, err := client.New[*Child](api).List(ctx, meta.ListOptions{})
		if err != nil {
			return err
		}
		byParent := map[string][]string{}
		for _, k := range kids {
			p := k.Namespace + "/" + k.Labels[ParentLabel]
			byParent[p] = append(byParent[p], k.Name)
		}
		for _, p := range slices.Sorted(maps.Keys(byParent)) {
			if names := byParent[p]; len(names) > 1 {
				return fmt.Errorf("parent %s has %d children: %s", p, len(names), strings.Join(names, ", "))
			}
		}
		return nil
	}}
}
