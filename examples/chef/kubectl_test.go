package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestKubectlWatchesTheChefCook is the learner's session: a front desk,
// `kubectl apply -f examples/manifests/`, `kubectl get orders -w`, then a
// chef in its own process, watched until every order is Served, passing
// through Pending and Cooking; `kubectl describe order` and `kubectl
// events` show the chef's notes.
func TestKubectlWatchesTheChefCook(t *testing.T) {
	d := openDesk(t)
	applied := kubectl(t, d, "apply", "-f", "../manifests/")
	for _, name := range []string{"table-7", "table-8", "table-9"} {
		if !strings.Contains(applied, "order.menu.example.com/"+name+" created") {
			t.Errorf("kubectl apply did not create %s:\n%s", name, applied)
		}
	}
	watch := kubectlCmd(t, d, "get", "orders", "-w")
	stdout, err := watch.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = watch.Process.Kill(); _ = watch.Wait() }()
	lines := readLines(stdout)
	// The chef starts only once kubectl has listed the three orders: its
	// watch then starts from that list's resourceVersion and misses no
	// change, however late it connects. (Started before, on a loaded
	// machine, the chef could move an order on before kubectl listed it.)
	var listed []string
	listing := time.After(deadline)
	for len(listed) < 3 {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("kubectl get orders -w ended after %q", listed)
			}
			if strings.HasPrefix(line, "table-") {
				listed = append(listed, line)
			}
		case <-listing:
			t.Fatalf("kubectl listed only %q", listed)
		}
	}
	startChef(t, d, "chef-1")
	phases := map[string][]string{} // order → phases seen, repeats folded
	for _, line := range listed {
		f := strings.Fields(line)
		phases[f[0]] = []string{"(none)"}
	}
	timeout := time.After(deadline)
	for served := 0; served < 3; {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("kubectl get orders -w ended; phases so far %v", phases)
			}
			// NAME SECTION TABLE PHASE AGE; no PHASE before the chef's first word
			f := strings.Fields(line)
			if len(f) < 4 || !strings.HasPrefix(f[0], "table-") {
				continue
			}
			name, phase := f[0], "(none)"
			if len(f) == 5 {
				phase = f[3]
			}
			if seen := phases[name]; len(seen) == 0 || seen[len(seen)-1] != phase {
				phases[name] = append(seen, phase)
				if phase == "Served" {
					served++
				}
			}
		case <-timeout:
			t.Fatalf("not every order was served; phases seen %v", phases)
		}
	}
	for name, seen := range phases {
		if !inOrder(seen, "Pending", "Cooking", "Served") {
			t.Errorf("%s moved %v, want Pending → Cooking → Served in that order", name, seen)
		}
	}
	describe := kubectl(t, d, "describe", "order", "table-7")
	notes := regexp.MustCompile(`(?m)^\s+Normal\s+(\w+)\s+\S+\s+chef\s`).FindAllStringSubmatch(describe, -1)
	var reasons []string
	for _, n := range notes {
		reasons = append(reasons, n[1])
	}
	if !inOrder(reasons, "Pending", "Cooking", "Served") {
		t.Errorf("kubectl describe order table-7 shows events %v, want Pending, Cooking, Served:\n%s", reasons, describe)
	}
	events := kubectl(t, d, "events")
	if !regexp.MustCompile(`Normal\s+Served\s+Order/table-9\s`).MatchString(events) {
		t.Errorf("kubectl events does not show table-9 served:\n%s", events)
	}
}

// inOrder reports whether want appear in seen in that order.
func inOrder(seen []string, want ...string) bool {
	i := 0
	for _, w := range want {
		j := slices.Index(seen[i:], w)
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return true
}
