// Package bench holds the side-by-side benchmarks: for each workload, one
// function that runs it on kitchensync and one that runs it on client-go,
// on the same inputs. compare's bench_test.go runs them as
// BenchmarkX/kitchensync and BenchmarkX/client-go; cmd/sidebyside runs
// them in alternation and prints a table.
package bench
