// Command sidebyside runs each kitchensync / client-go benchmark pair in
// alternation, several times, and prints a markdown table of the medians
// with the ratio kitchensync / client-go (below 1 means kitchensync is
// faster or leaner). Pairs that report cpu-ms/op (the informer pairs:
// process CPU time, user + system over every thread, GC included) also
// get the CPU ratio and its spread over the rounds in the last column. On
// a shared machine CPU time swings less than wall time, but still with
// load, so compare ratios within one run. A few pairs have another
// reference than client-go, named in the row: bare channels for the
// watch fan-out, etcd (started for the run, when its binary is built)
// for the durable writes.
//
// Usage, from compare/:
//
//	go run ./cmd/sidebyside               # 5 repetitions, 1s each, 100k objects
//	go run ./cmd/sidebyside -quick        # 3 repetitions, 200ms each, 10k objects
//	go run ./cmd/sidebyside -reps 9 -run Workqueue -o RESULTS.md
//	go run ./cmd/sidebyside -reps 7 -run DurableCreatesVsEtcd -benchtime 3000x
package main
