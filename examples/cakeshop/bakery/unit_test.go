package bakery_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
	"github.com/kitchensync/kitchensync/examples/cakeshop/bakery"
	"github.com/kitchensync/kitchensync/reconcile"
)

func TestValidateCake(t *testing.T) {
	valid := func(edit func(*bakery.CakeSpec)) *bakery.Cake {
		c := &bakery.Cake{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "ok"},
			Spec: bakery.CakeSpec{Flavor: "vanilla", Size: 8}}
		edit(&c.Spec)
		return c
	}
	tests := []struct {
		name   string
		reason string
		cake   *bakery.Cake
		fields []string // the fields the error names; nil: valid
	}{
		{"plain", "flavor and size are all a cake needs", valid(func(*bakery.CakeSpec) {}), nil},
		{"story form", "the story's order form is valid", valid(func(s *bakery.CakeSpec) {
			*s = bakery.CakeSpec{Flavor: "double-chocolate", Size: 8, Decoration: "Happy Birthday", PickupTime: "14:00", Allergies: []string{"nuts"}}
		}), nil},
		{"wedding", "10 layers, 6h, 2GB is a valid form; the kitchen decides later", valid(func(s *bakery.CakeSpec) {
			s.Layers, s.Resources = 10, bakery.CakeResources{MaxOvenTime: "6h", IcingMemory: "2GB"}
		}), nil},
		{"no flavor", "flavor is required", valid(func(s *bakery.CakeSpec) { s.Flavor = "" }), []string{"spec.flavor"}},
		{"everything wrong", "every bad field is named at once", valid(func(s *bakery.CakeSpec) {
			*s = bakery.CakeSpec{Flavor: "durian", Size: 2, Layers: 11, DecorationComplexity: "baroque", PickupTime: "noon",
				Priority: -1, Resources: bakery.CakeResources{MaxOvenTime: "-1h", IcingMemory: "2TB"}}
		}), []string{"spec.flavor", "spec.size", "spec.layers", "spec.decorationComplexity", "spec.pickupTime",
			"spec.priority", "spec.resources.maxOvenTime", "spec.resources.icingMemory"}},
		{"bad name", "names are DNS subdomains", &bakery.Cake{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "Alice's Cake"},
			Spec: bakery.CakeSpec{Flavor: "vanilla", Size: 8}}, []string{"metadata.name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The desk's early check and the API server's Validate hook
			// run the same rules: they refuse the same fields.
			checkRefusal(t, "ValidateCake", bakery.ValidateCake(tt.cake), tt.fields, tt.reason)
			cakes := client.New[*bakery.Cake](bakery.NewServer()).Namespace("haidian")
			_, err := cakes.Create(t.Context(), tt.cake, meta.CreateOptions{})
			checkRefusal(t, "Create", err, tt.fields, tt.reason)
		})
	}
}

// checkRefusal checks that err is nil when fields is nil, and otherwise a
// 422 Invalid error whose causes name exactly fields, in order.
func checkRefusal(t *testing.T, call string, err error, fields []string, reason string) {
	t.Helper()
	if fields == nil {
		if err != nil {
			t.Errorf("%s: %v; %s", call, err, reason)
		}
		return
	}
	var se *meta.StatusError
	if !meta.IsInvalid(err) || !errors.As(err, &se) || se.ErrStatus.Details == nil {
		t.Errorf("%s = %v, want a 422 Invalid error; %s", call, err, reason)
		return
	}
	var got []string
	for _, c := range se.ErrStatus.Details.Causes {
		got = append(got, c.Field)
	}
	if diff := cmp.Diff(fields, got); diff != "" {
		t.Errorf("%s: fields named (-want +got):\n%s\n%s", call, diff, reason)
	}
}

func TestParseMemory(t *testing.T) {
	for in, want := range map[string]int64{"512MB": 512, "2GB": 2048, "1Gi": 1024, "300Mi": 300} {
		if got, err := bakery.ParseMemory(in); err != nil || got != want {
			t.Errorf("ParseMemory(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2", "lots", "-1GB", "1.5GB", "2TB"} {
		if _, err := bakery.ParseMemory(in); err == nil {
			t.Errorf("ParseMemory(%q) succeeded, want an error", in)
		}
	}
}

func TestHistogramQuantile(t *testing.T) {
	h := func(count uint64, buckets ...reconcile.Bucket) reconcile.Histogram {
		return reconcile.Histogram{Count: count, Buckets: buckets}
	}
	b := func(le float64, n uint64) reconcile.Bucket { return reconcile.Bucket{UpperBound: le, Count: n} }
	tests := []struct {
		name string
		q    float64
		h    reconcile.Histogram
		want float64
	}{
		{"all in the first bucket interpolate from 0", 0.5, h(4, b(1, 4), b(2, 4)), 0.5},
		{"in the second bucket", 0.9, h(10, b(1, 5), b(2, 10)), 1.8},
		{"rank on a bound", 0.5, h(10, b(1, 5), b(2, 10)), 1},
		{"in +Inf: the highest finite bound", 0.99, h(10, b(1, 5), b(2, 8)), 2},
		{"story's p90", 0.9, h(6, b(0.05, 0), b(0.1, 6)), 0.095},
	}
	for _, tt := range tests {
		if got := bakery.HistogramQuantile(tt.q, tt.h); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: HistogramQuantile(%v) = %v, want %v", tt.name, tt.q, got, tt.want)
		}
	}
	if got := bakery.HistogramQuantile(0.9, reconcile.Histogram{}); !math.IsNaN(got) {
		t.Errorf("empty histogram: %v, want NaN", got)
	}
}

func TestTillRefundsOnce(t *testing.T) {
	var till bakery.Till
	c := &bakery.Cake{ObjectMeta: meta.ObjectMeta{Namespace: "haidian", Name: "a", UID: "u1"}, Spec: bakery.CakeSpec{Size: 8, Layers: 2}}
	if _, ok := till.Refund("u1"); ok {
		t.Error("refunded a deposit never taken")
	}
	till.TakeDeposit(c)
	if amount, ok := till.Refund("u1"); !ok || amount != 320 {
		t.Errorf("first refund = %d, %v; want 320, true", amount, ok)
	}
	if _, ok := till.Refund("u1"); ok {
		t.Error("refunded twice")
	}
	if diff := cmp.Diff([]string{"haidian/a"}, till.Refunded()); diff != "" {
		t.Errorf("Refunded (-want +got):\n%s", diff)
	}
}

// checkStaff: busy bakers are on duty, and onDuty never exceeds the hired.
func checkStaff(t *testing.T, s *bakery.Staff, wantBusy, wantOnDuty int) {
	t.Helper()
	busy, _, onDuty := s.Load()
	if busy != wantBusy || onDuty != wantOnDuty {
		t.Errorf("busy %d, on duty %d; want %d, %d", busy, onDuty, wantBusy, wantOnDuty)
	}
}

// Take never blocks: a cake that finds no free baker joins the waiting
// list, and is woken (in order) when a baker is hired or freed.
func TestStaffWaitingListAndDismissAfterTheCake(t *testing.T) {
	var s bakery.Staff
	var woken []string
	s.Notify(func(cake string) { woken = append(woken, cake) })
	s.Hire("b1")
	if name, ok := s.Take("haidian/a"); !ok || name != "b1" {
		t.Fatalf("Take(a) = %q, %v; want b1", name, ok)
	}
	if name, ok := s.Take("haidian/a"); !ok || name != "b1" {
		t.Fatalf("second Take(a) = %q, %v; want b1 again (a holds it)", name, ok)
	}
	checkStaff(t, &s, 1, 1)
	for _, c := range []string{"haidian/b", "haidian/c", "haidian/b"} {
		if _, ok := s.Take(c); ok {
			t.Fatalf("Take(%s) got a baker while b1 is busy", c)
		}
	}
	if _, waiting, _ := s.Load(); waiting != 2 {
		t.Fatalf("waiting = %d, want 2 (b once, c)", waiting)
	}
	s.Dismiss("b1") // busy: leaves after the cake
	checkStaff(t, &s, 1, 1)
	s.Hire("b2")
	if diff := cmp.Diff([]string{"haidian/b", "haidian/c"}, woken); diff != "" {
		t.Errorf("woken on hire (-want +got):\n%s", diff)
	}
	if name, ok := s.Take("haidian/b"); !ok || name != "b2" {
		t.Errorf("Take(b) after the hire = %q, %v; want b2", name, ok)
	}
	s.Release("haidian/a")
	checkStaff(t, &s, 1, 1) // b1 left with a's cake
	s.Release("haidian/c")  // gives up waiting
	if _, waiting, _ := s.Load(); waiting != 0 {
		t.Errorf("waiting = %d after c gave up, want 0", waiting)
	}
}

func TestKindsRegister(t *testing.T) {
	srv := bakery.NewServer()
	var kinds []string
	for _, k := range srv.Scheme().Kinds() {
		if k.Group == bakery.Group {
			kinds = append(kinds, k.Resource)
		}
	}
	slices.Sort(kinds)
	if diff := cmp.Diff([]string{"bakerpools", "bakers", "bakes", "cakes"}, kinds); diff != "" {
		t.Errorf("registered (-want +got):\n%s", diff)
	}
	if err := bakery.Register(srv.Scheme()); err == nil {
		t.Error("registering twice succeeded")
	}
}
