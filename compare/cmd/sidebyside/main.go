package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"k8s.io/klog/v2"

	"github.com/kitchensync/kitchensync/compare/internal/bench"
)

func main() {
	testing.Init()
	reps := flag.Int("reps", 5, "repetitions of each pair (medians are reported)")
	quick := flag.Bool("quick", false, "3 repetitions of 200ms with 10k objects instead of 100k")
	benchtime := flag.String("benchtime", "", "time (or Nx) per benchmark run; default 1s, or 200ms with -quick")
	run := flag.String("run", "", "only pairs whose name matches this regexp")
	out := flag.String("o", "", "also write the table (with the command line) to this file")
	flag.Parse()
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)

	bt := "1s"
	if *quick {
		bt, bench.Scale = "200ms", 10_000
		if !isSet("reps") {
			*reps = 3
		}
	}
	if *benchtime != "" {
		bt = *benchtime
	}
	if err := flag.Set("test.benchtime", bt); err != nil {
		fatal(err)
	}
	re, err := regexp.Compile(*run)
	if err != nil {
		fatal(err)
	}
	var rows []row
	for _, p := range bench.Pairs() {
		if !re.MatchString(p.Name) {
			continue
		}
		fmt.Fprintf(os.Stderr, "%s ", p.Name)
		rows = append(rows, measure(p, *reps))
		fmt.Fprintln(os.Stderr)
	}
	bench.Close()
	table := render(rows, strings.Join(os.Args[1:], " "), bt, *reps)
	fmt.Print(table)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(table), 0o644); err != nil {
			fatal(err)
		}
	}
}

func isSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "sidebyside:", err)
	os.Exit(2)
}

// row is the medians of one pair.
type row struct {
	name   string
	ks, cg result
	// lo and hi are the smallest and largest time ratio of one round (a
	// kitchensync run and the client-go run beside it): the spread.
	lo, hi float64
	// cpu is the spread of the process CPU time ratio, for the pairs
	// that report it (a unit named cpu-...: bench.CPUUnit or cpu-ns/op).
	cpu spread
}

// spread is the smallest and largest ratio of one round.
type spread struct{ lo, hi float64 }

// spreadOf returns the spread of the per-round ratios f(ks[i]) / f(cg[i]).
func spreadOf(ks, cg []testing.BenchmarkResult, f func(testing.BenchmarkResult) float64) spread {
	var s spread
	for i := range ks {
		r := ratio(f(ks[i]), f(cg[i]))
		if i == 0 || r < s.lo {
			s.lo = r
		}
		if i == 0 || r > s.hi {
			s.hi = r
		}
	}
	return s
}

type result struct {
	ns, bytes, allocs float64
	extra             map[string]float64
}

// measure runs the pair reps times, alternating which side goes first.
func measure(p bench.Pair, reps int) row {
	var ks, cg []testing.BenchmarkResult
	for i := range reps {
		if i%2 == 0 {
			ks = append(ks, testing.Benchmark(p.KS))
			cg = append(cg, testing.Benchmark(p.CG))
		} else {
			cg = append(cg, testing.Benchmark(p.CG))
			ks = append(ks, testing.Benchmark(p.KS))
		}
		fmt.Fprint(os.Stderr, ".")
	}
	r := row{name: p.Name, ks: medians(ks), cg: medians(cg)}
	t := spreadOf(ks, cg, nsPerOp)
	r.lo, r.hi = t.lo, t.hi
	if unit := cpuUnit(ks[0].Extra); unit != "" {
		r.cpu = spreadOf(ks, cg, func(r testing.BenchmarkResult) float64 { return r.Extra[unit] })
	}
	return r
}

// cpuUnit returns the unit of process CPU time among a result's extra
// metrics (cpu-ms/op, cpu-ns/op), or "".
func cpuUnit(extra map[string]float64) string {
	for unit := range extra {
		if strings.HasPrefix(unit, "cpu-") {
			return unit
		}
	}
	return ""
}

func nsPerOp(r testing.BenchmarkResult) float64 { return float64(r.T.Nanoseconds()) / float64(r.N) }

func medians(rs []testing.BenchmarkResult) result {
	med := func(f func(testing.BenchmarkResult) float64) float64 {
		vs := make([]float64, len(rs))
		for i, r := range rs {
			vs[i] = f(r)
		}
		slices.Sort(vs)
		return vs[len(vs)/2]
	}
	out := result{
		ns:     med(nsPerOp),
		bytes:  med(func(r testing.BenchmarkResult) float64 { return float64(r.AllocedBytesPerOp()) }),
		allocs: med(func(r testing.BenchmarkResult) float64 { return float64(r.AllocsPerOp()) }),
		extra:  map[string]float64{},
	}
	for unit := range rs[0].Extra {
		out.extra[unit] = med(func(r testing.BenchmarkResult) float64 { return r.Extra[unit] })
	}
	return out
}

func render(rows []row, args, bt string, reps int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Medians of %d alternating runs of %s each; \"100k\" workloads at %d objects; ratio = kitchensync / reference (below 1: kitchensync faster or leaner); the reference is client-go (or controller-runtime) unless the row names another: bare channels for WatchFanOutVsBareChannels, client-go's fake clientset tracker for ServerWrites, etcd's own client for DurableCreatesVsEtcd; the time ratio's spread is the lowest and highest ratio of one round; %s (and cpu-ns/op) is process CPU time (user + system, all threads, GC included) in the same timed region, with its ratio and spread.\n", reps, bt, bench.Scale, bench.CPUUnit)
	fmt.Fprintf(&b, "Command: `cd compare && go run ./cmd/sidebyside %s` (%s, %s/%s, %d CPUs, %s).\n\n",
		args, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02 15:04 MST"))
	b.WriteString("| Benchmark | kitchensync | reference | time ratio (spread) | B/op ks / ref | allocs/op ks / ref | other (ks / ref) |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f (%.2f–%.2f) | %s / %s (%.2f) | %s / %s (%.2f) | %s |\n",
			r.name, dur(r.ks.ns), dur(r.cg.ns), r.ks.ns/r.cg.ns, r.lo, r.hi,
			num(r.ks.bytes), num(r.cg.bytes), ratio(r.ks.bytes, r.cg.bytes),
			num(r.ks.allocs), num(r.cg.allocs), ratio(r.ks.allocs, r.cg.allocs), extras(r))
	}
	return b.String()
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func extras(r row) string {
	var units []string
	for u := range r.ks.extra {
		units = append(units, u)
	}
	sort.Strings(units)
	var parts []string
	for _, u := range units {
		part := fmt.Sprintf("%s %s / %s", u, num(r.ks.extra[u]), num(r.cg.extra[u]))
		if strings.HasPrefix(u, "cpu-") {
			part += fmt.Sprintf(" (%.2f, %.2f–%.2f)", ratio(r.ks.extra[u], r.cg.extra[u]), r.cpu.lo, r.cpu.hi)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// dur prints nanoseconds with a readable unit.
func dur(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

// num prints a count with k/M suffixes.
func num(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0fk", v/1e3)
	case v >= 100 || v == float64(int64(v)):
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
