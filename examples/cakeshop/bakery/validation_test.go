package bakery_test

import (
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
)

func TestAPIServerValidatesBakerPools(t *testing.T) {
	pool := func(lo, hi, target int) *bakery.BakerPool {
		return &bakery.BakerPool{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "valentine"},
			Spec: bakery.BakerPoolSpec{MinReplicas: lo, MaxReplicas: hi, TargetUtilization: target}}
	}
	tests := []struct {
		name   string
		reason string
		pool   *bakery.BakerPool
		fields []string // nil: stored
	}{
		{"story", "the rush's pool: min 2, max 10, target 70%", pool(2, 10, 70), nil},
		{"fixed size", "min = max is a pool that does not scale", pool(3, 3, 100), nil},
		{"empty spec", "every field is named at once", pool(0, 0, 0),
			[]string{"spec.minReplicas", "spec.maxReplicas", "spec.targetUtilization"}},
		{"max below min", "the range would be empty", pool(5, 3, 70), []string{"spec.maxReplicas"}},
		{"target over 100", "utilization is a percentage of the bakers", pool(2, 10, 150), []string{"spec.targetUtilization"}},
		{"negative target", "the autoscaler divides by the target", pool(2, 10, -70), []string{"spec.targetUtilization"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pools := client.New[*bakery.BakerPool](bakery.NewServer()).Namespace("haidian")
			_, err := pools.Create(t.Context(), tt.pool, meta.CreateOptions{})
			checkRefusal(t, "Create", err, tt.fields, tt.reason)
			_, err = pools.Get(t.Context(), "valentine", meta.GetOptions{})
			if stored := err == nil; stored != (tt.fields == nil) {
				t.Errorf("stored: %v (Get: %v), want %v; %s", stored, err, tt.fields == nil, tt.reason)
			}
		})
	}
}

func TestAPIServerValidatesBakerPoolUpdates(t *testing.T) {
	ctx := t.Context()
	pools := client.New[*bakery.BakerPool](bakery.NewServer()).Namespace("haidian")
	p, err := pools.Create(ctx, &bakery.BakerPool{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "valentine"},
		Spec: bakery.BakerPoolSpec{MinReplicas: 2, MaxReplicas: 10, TargetUtilization: 70}}, meta.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The autoscaler's status writes pass: the spec they carry is valid.
	p.Status = bakery.BakerPoolStatus{Replicas: 2, DesiredReplicas: 3, Utilization: 90}
	if p, err = pools.UpdateStatus(ctx, p, meta.UpdateOptions{}); err != nil {
		t.Fatalf("UpdateStatus: %v", err)
	}
	// An edit that breaks the spec is refused whole, and nothing changes.
	bad := p.DeepCopyObject().(*bakery.BakerPool)
	bad.Spec.MaxReplicas = 1
	_, err = pools.Update(ctx, bad, meta.UpdateOptions{})
	checkRefusal(t, "Update", err, []string{"spec.maxReplicas"}, "max 1 is below min 2")
	got, err := pools.Get(ctx, "valentine", meta.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.ResourceVersion != p.ResourceVersion || got.Spec.MaxReplicas != 10 {
		t.Errorf("after the refused update: resourceVersion %s (want %s), maxReplicas %d (want 10)",
			got.ResourceVersion, p.ResourceVersion, got.Spec.MaxReplicas)
	}
}

func TestAPIServerValidatesBakers(t *testing.T) {
	tests := []struct {
		name   string
		reason string
		pool   string
		fields []string // nil: stored
	}{
		{"in a pool", "the autoscaler names the pool", "valentine", nil},
		{"no pool", "a baker works for a pool", "", []string{"spec.pool"}},
		{"bad pool name", "the pool is named like any object", "Valentine's", []string{"spec.pool"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bakers := client.New[*bakery.Baker](bakery.NewServer()).Namespace("haidian")
			b := &bakery.Baker{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "valentine-baker-01"},
				Spec: bakery.BakerSpec{Pool: tt.pool}}
			_, err := bakers.Create(t.Context(), b, meta.CreateOptions{})
			checkRefusal(t, "Create", err, tt.fields, tt.reason)
		})
	}
}
