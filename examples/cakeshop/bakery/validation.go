package bakery

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kitchensync/kitchensync/apiserver"
)

// Flavors the shop bakes.
var Flavors = []string{"double-chocolate", "vanilla", "strawberry", "matcha", "red-velvet", "carrot"}

var complexities = []string{"simple", "fancy", "extreme"}

// cakeKind is the group and kind named in validation errors.
var cakeKind = apiserver.GroupKind{Group: Group, Kind: "Cake"}

// ValidateCake checks an order form the way a CRD's OpenAPI schema and a
// validating webhook would, and returns one 422 Invalid error naming every
// bad field (apiserver.IsInvalid), or nil.
func ValidateCake(c *Cake) error {
	var errs apiserver.FieldErrors
	errs = append(errs, apiserver.ValidateName("metadata.name", c.Name)...)
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
	if d := s.Resources.MaxOvenTime; d != "" {
		if v, err := time.ParseDuration(d); err != nil || v <= 0 {
			errs.Invalid("spec.resources.maxOvenTime", d, "must be a positive duration such as 6h")
		}
	}
	if m := s.Resources.IcingMemory; m != "" {
		if _, err := ParseMemory(m); err != nil {
			errs.Invalid("spec.resources.icingMemory", m, err.Error())
		}
	}
	return errs.ToError(cakeKind, c.Name)
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

// OrderDesk is the order desk (订单受理台): it checks each order form before
// it reaches the API server, as an admission webhook would, and takes the
// deposit. Like a [Till], it is safe for concurrent use.
type OrderDesk struct {
	Client *apiserver.Client[*Cake]
	Till   *Till
}

// Place validates c, creates it and takes its deposit. A bad form is
// refused with a 422 Invalid error and nothing is written.
func (d OrderDesk) Place(ctx context.Context, c *Cake) (*Cake, error) {
	if err := ValidateCake(c); err != nil {
		return nil, err
	}
	created, err := d.Client.Namespace(c.Namespace).Create(ctx, c, apiserver.CreateOptions{})
	if err != nil {
		return nil, err
	}
	if d.Till != nil {
		d.Till.TakeDeposit(created)
	}
	return created, nil
}
