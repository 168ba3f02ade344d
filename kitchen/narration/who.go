package narration

import (
	"fmt"
	"io"
)

// cast introduces each voice of the story, in the order a ticket meets
// them.
var cast = []struct{ who, what string }{
	{"waiter", "a waiter: writes each table's order to the front desk, as kubectl does"},
	{"apiserver", "the front desk: the API server, which stamps every write with a resourceVersion"},
	{"runner", "the runner: the informers, which list and watch the desk and remember it (the cache)"},
	{"rail", "the ticket rail: the chef's work queue of order keys"},
	{"chef", "the chef: the reconciler of orders, who sends cooks"},
	{"cook", "the brigade: the reconciler of cooks, who plays the kubelet for them"},
}

// WhoIsWho writes a short cast list for the voices named (all of them if
// none is), so that a reader meets each before it speaks.
func WhoIsWho(w io.Writer, who ...string) {
	fmt.Fprintln(w, "Who is who:")
	for _, c := range cast {
		if len(who) == 0 || contains(who, c.who) {
			fmt.Fprintf(w, "  %-11s %s\n", "["+c.who+"]", c.what)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
