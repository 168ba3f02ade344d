package lessons_test

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/examples/internal/lessons"
)

// run runs a lesson in a synctest bubble (kitchen time is virtual, so the
// lesson takes no real time) and returns what it printed.
func run(t *testing.T, lesson func(context.Context, io.Writer) error) string {
	t.Helper()
	var out bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		if err := lesson(t.Context(), &out); err != nil {
			t.Fatalf("lesson failed: %v\n%s", err, out.String())
		}
	})
	return squeeze(out.String())
}

// squeeze collapses runs of spaces, so that checks ignore alignment.
func squeeze(s string) string {
	return regexp.MustCompile(` +`).ReplaceAllString(s, " ")
}

// inOrder checks that each pattern matches a line, in order.
func inOrder(t *testing.T, out string, patterns ...string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	at := 0
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for at < len(lines) && !re.MatchString(lines[at]) {
			at++
		}
		if at == len(lines) {
			t.Fatalf("missing, in order: %q\n%s", p, out)
		}
	}
}

func TestOrderLifecycle(t *testing.T) {
	out := run(t, lessons.OrderLifecycle)
	inOrder(t, out,
		`\[waiter\] table 7 \(vip\) orders 1× seafood-pasta, 1× beef-wellington`,
		`\[apiserver\] ADDED dinner/table-7 \(rv \d+\)`,
		`\[runner\] cache: dinner/table-7 now at rv \d+ \(Added\)`,
		`\[rail\] ticket dinner/table-7 pinned \(priority 100;`,
		`\[chef\] dinner/table-7: asks for cook table-7-0-g1 at the stove`,
		`\[cook\] dinner/table-7-0-g1: cooks 1× seafood-pasta`,
		`\[waiter\] table-7 adds black-truffle to item 0`,
		`\[apiserver\] MODIFIED dinner/table-7 \(rv \d+\): spec changed`,
		`\[runner\] cache: dinner/table-7 now at rv \d+ \(Updated\)`,
		`\[chef\] dinner/table-7: item 0: extras \[\] → \[black-truffle\], without restarting the seafood-pasta`,
		`\[cook\] dinner/table-7-0-g1: 1× seafood-pasta is at the pass`,
		`\[apiserver\] MODIFIED dinner/table-7 \(rv \d+\): deletionTimestamp set`,
		`\[chef\] dinner/table-7: stops cook table-7-1-g1 \(the table cancelled; it was cooking: ingredients wasted\)`,
		`\[apiserver\] DELETED dinner/table-7`,
		`\[apiserver\] garbage collector: DELETED cook dinner/table-7-[01]-g1 \(rv \d+; its owner is gone\)`,
		`\[chef\] dinner/table-7: removed finalizer .*so the apiserver deleted it`,
		`black-truffle opening 500g used 10 wasted 0 reserved 0`,
		`filet-mignon opening 10000g used 0 wasted 500 reserved 0`,
		`pantry balanced`,
	)
}

func TestSharedInformer(t *testing.T) {
	out := run(t, lessons.SharedInformer)
	inOrder(t, out,
		`served 2 lists .* 12 copies of 6 orders`,
		`the chef heard 6 orders, the maître d' heard 6`,
		`served 3 lists in all`,
		`section=vip: \[order-1 order-4\]`,
		`table=7: \[order-3\]`,
		`fieldSelector=spec.section%3Dvip → \[order-1 order-4\]`,
	)
}

func TestResync(t *testing.T) {
	out := run(t, lessons.Resync)
	inOrder(t, out,
		`\[chef\] dinner/table-2: status Ready → Served`,
		`\[runner\] resync or relist: hands dinner/table-2 over again`,
		`\[runner\] resync or relist: hands dinner/table-2 over again`,
		`resourceVersion before (\d+), after (\d+); API requests during the resyncs: 0`,
	)
	m := regexp.MustCompile(`before (\d+), after (\d+)`).FindStringSubmatch(out)
	if m[1] != m[2] {
		t.Errorf("a resync wrote to the API server: rv %s → %s", m[1], m[2])
	}
}

func TestWatchExpired(t *testing.T) {
	out := run(t, lessons.WatchExpired)
	inOrder(t, out,
		`\[runner\] LIST orders: 3 orders at rv 4`,
		`\[runner\] stuck in the lift`,
		`\[apiserver\] history compacted at rv 7`,
		`\[runner\] WATCH orders from rv 4`,
		`\[runner\] watch failed: 410 Expired`,
		`\[runner\] LIST orders: 3 orders at rv 7`,
		`\[runner\] OnDelete order-2 \(last known rv 3, tombstone: true\)`,
		`\[chef\] order-2: not in the cache any more`,
		`the runner's memory now: \[dinner/order-1 dinner/order-3 dinner/order-4\]`,
	)
	for _, p := range []string{`OnUpdate order-3 \(rv 4 → 7\)`, `OnAdd order-4 \(rv 6, initial list: false\)`} {
		if !regexp.MustCompile(p).MatchString(out) {
			t.Errorf("missing %q:\n%s", p, out)
		}
	}
}

func TestRushHour(t *testing.T) {
	out := run(t, lessons.RushHour)
	inOrder(t, out,
		`no limit`, `minute 0: 30 tickets`,
		`10 tickets per minute`, `minute 0: 10 tickets`, `minute 1: 10 tickets`, `minute 2: 10 tickets`,
	)
	if strings.Contains(out, "minute 3") {
		t.Errorf("a ticket came late:\n%s", out)
	}
}

func TestVIPPriority(t *testing.T) {
	out := run(t, lessons.VIPPriority)
	inOrder(t, out,
		`^ order-3 section vip .* priority 100`,
		`^ order-5 section vip .* priority 100`,
		`^ order-4 section main spec.priority 5`,
		`^ order-1 section main`,
		`^ order-2 section terrace`,
		`^ order-6 section terrace`,
		`added at 0, 50, 0 → one ticket, order-6 at priority 50`,
	)
}

func TestFinalizers(t *testing.T) {
	out := run(t, lessons.Finalizers)
	inOrder(t, out, // table 2 first: its cook is collected once its order is gone
		`\[apiserver\] DELETED dinner/table-2 `,
		`\[apiserver\] garbage collector: DELETED cook dinner/table-2-0-g1 \(rv \d+; its owner is gone\)`,
	)
	// The chef stops a cancelled order's cooks but leaves deleting them to
	// the garbage collector: no cook delete is told as anyone else's.
	if regexp.MustCompile(`sees cook dinner/table-[12]-0-g1 DELETED → ticket`).MatchString(out) {
		t.Errorf("a cancelled order's cook was deleted before its order went:\n%s", out)
	}
	inOrder(t, out,
		`GET plain after DELETE: .*NotFound: true`,
		`GET held after DELETE: still there, deletionTimestamp set: true`,
		`adding another finalizer now: .*Forbidden`,
		`GET held after the update: .*NotFound: true`,
		`\[chef\] dinner/table-2: stops cook table-2-0-g1 \(the table cancelled; it was not started: ingredients back in the pantry\)`,
		`\[chef\] dinner/table-1: stops cook table-1-0-g1 \(the table cancelled; it was cooking: ingredients wasted\)`,
		`\[apiserver\] DELETED dinner/table-1 `,
		`\[apiserver\] garbage collector: DELETED cook dinner/table-1-0-g1 \(rv \d+; its owner is gone\)`,
		`\[chef\] dinner/table-1: removed finalizer .*and its garbage collector the cooks`,
		`cooks left: \[table-3-0-g1\]`,
		`chocolate opening 4000g used 0 wasted 200 reserved 200 on the shelf 3600`,
		`pantry balanced`,
	)
}

func TestStaleChef(t *testing.T) {
	out := run(t, lessons.StaleChef)
	inOrder(t, out,
		`\[chef\] dinner/table-7: my memory shows no cook on the caesar-salad: sends one`,
		`\[apiserver\] ADDED cook dinner/table-7-\w{5} \(rv \d+\)`,
		`\[chef\] dinner/table-7: my memory shows no cook on the caesar-salad: sends one`,
		`\[apiserver\] ADDED cook dinner/table-7-\w{5} \(rv \d+\)`,
		`\[chef\] dinner/table-7: my memory shows 2 cooks on one caesar-salad: one too many`,
		// The second chef's predicate is introduced before it drops the
		// earlier table's order, which the informer replays to him.
		`\[chef\] a chef starts for table 8 alone: his predicate, tableFilter, passes only`,
		`\[runner\] tableFilter drops the Create of dinner/table-7`,
		`\[chef\] dinner/table-8: notes that he wrote cooks at rv \d+ \(Freshness.WroteAt\)`,
		`\[chef\] dinner/table-8: my memory does not show my own last writes for it yet: skipped`,
		`\[runner\] cache: cook dinner/table-8-\w{5} now at rv \d+`,
		`\[chef\] dinner/table-8: my memory shows cook table-8-\w{5} on the caesar-salad: nothing to do`,
		`cooks created for table 7's one salad: 2`,
		`cooks created for table 8's one salad: 1`,
		`stale_sync_skips_total\{controller="chef"\} [1-9]`,
		`store_resource_version\{controller="chef",resource="cooks.menu.example.com"\} \d+`,
	)
}
