package kitchen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Unit is the base unit an ingredient is counted in.
type Unit string

// The base units of the pantry. Kilograms and litres are converted to
// grams and millilitres when parsed; a bare number counts pieces.
const (
	Grams       Unit = "g"
	Millilitres Unit = "ml"
	Pieces      Unit = "pcs"
)

// Quantity is an amount as written in a recipe: "500g", "1.5kg", "200ml",
// "1l", "2pcs" or just "2" (pieces). Like Kubernetes' resource.Quantity it
// travels as a string and is parsed when used; see [ParseQuantity].
type Quantity string

// Amount is a parsed [Quantity]: a whole number of base units.
type Amount struct {
	Value int64
	Unit  Unit
}

// String writes a in its base unit, e.g. "500g" or "2pcs".
func (a Amount) String() string {
	return strconv.FormatInt(a.Value, 10) + string(a.Unit)
}

// Times returns a multiplied by n (portions).
func (a Amount) Times(n int) Amount {
	return Amount{Value: a.Value * int64(n), Unit: a.Unit}
}

// unitScale maps each accepted suffix to its base unit and factor.
var unitScale = map[string]struct {
	unit   Unit
	factor float64
}{
	"g": {Grams, 1}, "kg": {Grams, 1000},
	"ml": {Millilitres, 1}, "l": {Millilitres, 1000},
	"pcs": {Pieces, 1}, "": {Pieces, 1},
}

// ParseQuantity parses q into base units. It rejects negative numbers,
// unknown units and amounts that are not a whole number of base units
// (such as "0.5g").
func ParseQuantity(q Quantity) (Amount, error) {
	s := strings.TrimSpace(string(q))
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(s)
	}
	num, suffix := s[:i], s[i:]
	scale, ok := unitScale[suffix]
	if !ok {
		return Amount{}, fmt.Errorf("quantity %q: unknown unit %q (use g, kg, ml, l, pcs or none)", q, suffix)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return Amount{}, fmt.Errorf("quantity %q: not a number followed by a unit, e.g. 500g", q)
	}
	base := v * scale.factor
	if base != float64(int64(base)) || base > 1e12 {
		return Amount{}, fmt.Errorf("quantity %q: must be a whole number of %s", q, scale.unit)
	}
	return Amount{Value: int64(base), Unit: scale.unit}, nil
}

// Duration is a span of kitchen time that marshals to JSON as a string
// ("40m0s") and accepts any [time.ParseDuration] form ("40m"), like
// Kubernetes' metav1.Duration.
type Duration struct {
	time.Duration
}

// Minutes returns a Duration of n kitchen minutes.
func Minutes(n float64) Duration {
	return Duration{time.Duration(n * float64(time.Minute))}
}

// OpenAPISchemaType tells [meta.SchemaOf] that a Duration is written
// as a string, as metav1.Duration declares itself; kubectl explain and
// server-side apply then see a string.
func (Duration) OpenAPISchemaType() []string { return []string{"string"} }

// MarshalJSON writes d as a duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(d.Duration.String())
}

// UnmarshalJSON reads a duration string such as "40m".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string like \"40m\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}
