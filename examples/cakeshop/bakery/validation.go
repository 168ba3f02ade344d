package bakery

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver/client"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Flavors the shop bakes.
var Flavors = []string{"double-chocolate", "vanilla", "strawberry", "matcha", "red-velvet", "carrot"}

var complexities = []string{"simple", "fancy", "extreme"}

// cakeKind is the group and kind named in validation errors.
var cakeKind = meta.GroupKind{Group: Group, Kind: "Cake"}

// The rules live in one place each: the functions below return what is
// wrong with an object, one cause per problem. The API server runs them on
// every write of the kind (see [Kinds]: each kind's Validate, as a CRD's
// OpenAPI schema), however the write is made — kubectl, a controller, the
// order desk; [ValidateCake] runs the cake's rules early, at the desk, as
// a client-side check or kubectl's dry run would.

// ValidateCake checks an order form the way a CRD's OpenAPI schema and a
// validating webhook would, and returns one 422 Invalid error naming every
// bad field (meta.IsInvalid), or nil. It checks the name, as the API
// server does for every kind, and then the rules the server checks for
// cakes, so the server refuses exactly the forms it refuses.
func ValidateCake(c *Cake) error {
	if c == nil {
		return meta.NewBadRequest("no cake given")
	}
	errs := meta.ValidateName("metadata.name", c.Name)
	errs = append(errs, cakeSpecErrors(c)...)
	return errs.ToError(cakeKind, c.Name)
}

// cakeSpecErrors returns what is wrong with an order form's spec.
func cakeSpecErrors(c *Cake) meta.FieldErrors {
	var errs meta.FieldErrors
	s := c.Spec
	switch {
	case s.Flavor == "":
		errs.Required("spec.flavor", "what kind of cake?")
	case !contains(Flavors, s.Flavor):
		errs.NotSupported("spec.flavor", s.Flavor, Flavors)
	}
	if s.Size < 4 || s.Size > 16 {
		errs.Invalid("spec.size", s.Size, "must be between 4 and 16 inches")
	}
	if s.Layers < 0 || s.Layers > 10 {
		errs.Invalid("spec.layers", s.Layers, "must be between 1 and 10")
	}
	if s.DecorationComplexity != "" && !contains(complexities, s.DecorationComplexity) {
		errs.NotSupported("spec.decorationComplexity", s.DecorationComplexity, complexities)
	}
	if len(s.Decoration) > 40 {
		errs.TooLong("spec.decoration", 40)
	}
	if s.PickupTime != "" {
		if _, err := ParseClockTime(s.PickupTime); err != nil {
			errs.Invalid("spec.pickupTime", s.PickupTime, err.Error())
		}
	}
	if s.Priority < 0 {
		errs.Invalid("spec.priority", s.Priority, "must not be negative")
	}
	return append(errs, resourceErrors(s.Resources)...)
}

// resourceErrors returns what is wrong with an order's resources.
func resourceErrors(r CakeResources) meta.FieldErrors {
	var errs meta.FieldErrors
	if d := r.MaxOvenTime; d != "" {
		if v, err := time.ParseDuration(d); err != nil || v <= 0 {
			errs.Invalid("spec.resources.maxOvenTime", d, "must be a positive duration such as 6h")
		}
	}
	if m := r.IcingMemory; m != "" {
		if _, err := ParseMemory(m); err != nil {
			errs.Invalid("spec.resources.icingMemory", m, err.Error())
		}
	}
	return errs
}

// bakerPoolSpecErrors returns what is wrong with a pool's spec, as the
// HorizontalPodAutoscaler's schema checks its own: at least one baker, a
// maximum no smaller than the minimum, and a target between 1 and 100
// percent (the autoscaler divides by it).
func bakerPoolSpecErrors(p *BakerPool) meta.FieldErrors {
	var errs meta.FieldErrors
	s := p.Spec
	if s.MinReplicas < 1 {
		errs.Invalid("spec.minReplicas", s.MinReplicas, "must be at least 1")
	}
	if s.MaxReplicas < max(1, s.MinReplicas) {
		errs.Invalid("spec.maxReplicas", s.MaxReplicas, "must be at least 1 and at least minReplicas")
	}
	if s.TargetUtilization < 1 || s.TargetUtilization > 100 {
		errs.Invalid("spec.targetUtilization", s.TargetUtilization, "must be between 1 and 100 percent")
	}
	return errs
}

// bakerSpecErrors returns what is wrong with a baker's spec: the pool it
// works for must be named, with a valid object name.
func bakerSpecErrors(b *Baker) meta.FieldErrors {
	if b.Spec.Pool == "" {
		var errs meta.FieldErrors
		errs.Required("spec.pool", "which BakerPool does the baker work for?")
		return errs
	}
	return meta.ValidateName("spec.pool", b.Spec.Pool)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ParseMemory parses a memory quantity ("512MB", "2GB", "1Gi", "300Mi")
// into megabytes. Decimal and binary suffixes are both taken as powers of
// 1024 MB per GB: the icing fridge is not that precise.
func ParseMemory(q string) (int64, error) {
	units := []struct {
		suffix string
		mb     int64
	}{{"GB", 1024}, {"Gi", 1024}, {"MB", 1}, {"Mi", 1}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(q, u.suffix); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("want a whole number before %s", u.suffix)
			}
			return n * u.mb, nil
		}
	}
	return 0, fmt.Errorf("want a quantity such as 512MB or 2GB")
}

// FormatMemory writes megabytes the way the order form does.
func FormatMemory(mb int64) string {
	if mb >= 1024 && mb%1024 == 0 {
		return fmt.Sprintf("%dGB", mb/1024)
	}
	return fmt.Sprintf("%dMB", mb)
}

// ParseClockTime parses a shop time of day "HH:MM" into the duration since
// midnight.
func ParseClockTime(s string) (time.Duration, error) {
	t, err := time.Parse("15:04", s)
	if err != nil {
		return 0, fmt.Errorf("want a time of day such as 14:00")
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}

// OrderDesk is the order desk (订单受理台): it checks each order form with
// [ValidateCake] before it reaches the API server (which refuses the same
// forms itself) and takes the deposit. Like a [Till], it is safe for
// concurrent use.
type OrderDesk struct {
	Client *client.Client[*Cake]
	Till   *Till
}

// Place validates c, creates it and takes its deposit. A bad form is
// refused with a 422 Invalid error and nothing is written; checking early
// spares the API server the request, not the check.
func (d OrderDesk) Place(ctx context.Context, c *Cake) (*Cake, error) {
	if err := ValidateCake(c); err != nil {
		return nil, err
	}
	created, err := d.Client.Namespace(c.Namespace).Create(ctx, c, meta.CreateOptions{})
	if err != nil {
		return nil, err
	}
	if d.Till != nil {
		d.Till.TakeDeposit(created)
	}
	return created, nil
}
