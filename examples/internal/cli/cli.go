// Package cli checks the command lines of the example programs: flags
// whose values must lie in a range are refused, with the range, when they
// do not, and a word left over on the command line is an error rather
// than something quietly ignored.
package cli

import (
	"flag"
	"fmt"
	"strconv"
	"time"
)

// Int defines an int flag on fs that refuses a value outside [min, max],
// saying the range; its usage line ends with the range and the default.
func Int(fs *flag.FlagSet, name string, value, min, max int, usage string) *int {
	p := &value
	fs.Func(name, fmt.Sprintf("%s (%d to %d; default %d)", usage, min, max, value), func(s string) error {
		n, err := strconv.Atoi(s)
		switch {
		case err != nil:
			return fmt.Errorf("not a whole number: give one from %d to %d", min, max)
		case n < min || n > max:
			return fmt.Errorf("%d is out of range: give one from %d to %d", n, min, max)
		}
		*p = n
		return nil
	})
	return p
}

// Duration defines a duration flag on fs that refuses a value outside
// [min, max], saying the range; its usage line ends with the range and
// the default.
func Duration(fs *flag.FlagSet, name string, value, min, max time.Duration, usage string) *time.Duration {
	p := &value
	fs.Func(name, fmt.Sprintf("%s (%v to %v; default %v)", usage, min, max, value), func(s string) error {
		d, err := time.ParseDuration(s)
		switch {
		case err != nil:
			return fmt.Errorf("not a duration: give one from %v to %v, such as %v", min, max, value)
		case d < min || d > max:
			return fmt.Errorf("%v is out of range: give one from %v to %v", d, min, max)
		}
		*p = d
		return nil
	})
	return p
}

// Float defines a float64 flag on fs that refuses a value outside [min,
// max], saying the range.
func Float(fs *flag.FlagSet, name string, value, min, max float64, usage string) *float64 {
	p := &value
	fs.Func(name, fmt.Sprintf("%s (%g to %g; default %g)", usage, min, max, value), func(s string) error {
		f, err := strconv.ParseFloat(s, 64)
		switch {
		case err != nil:
			return fmt.Errorf("not a number: give one from %g to %g", min, max)
		case f < min || f > max:
			return fmt.Errorf("%g is out of range: give one from %g to %g", f, min, max)
		}
		*p = f
		return nil
	})
	return p
}

// NoArgs returns an error naming the first word fs did not parse as a
// flag, if any. A bool flag takes its value after "=" (-seed=false), so
// "-seed false" leaves "false" over, and is refused here.
func NoArgs(fs *flag.FlagSet) error {
	if fs.NArg() == 0 {
		return nil
	}
	return fmt.Errorf("unexpected argument %q (flags come before it; a true/false flag takes its value after =, as in -flag=false)", fs.Arg(0))
}
