package narration_test

import (
	"os"
	"time"

	"github.com/kitchensync/kitchensync/kitchen"
	"github.com/kitchensync/kitchensync/kitchen/narration"
)

// A Narrator prefixes each line with the kitchen minute and who acts; at
// HandOffs it tells what is said and keeps the details to itself.
func ExampleNarrator() {
	clock := kitchen.NewClock(time.Hour) // a slow kitchen: it stays at minute 0
	var log kitchen.Logger = narration.New(os.Stdout, clock, narration.HandOffs)
	log.Say("waiter", "table 7 orders 1× seafood-pasta")
	log.Detail("rail", "chef takes ticket dinner/table-7 (priority 0)")
	log.Say("chef", "dinner/table-7: compares order (generation 1, rv 8) with the kitchen")
	// Output:
	//    0.0 [waiter]    table 7 orders 1× seafood-pasta
	//    0.0 [chef]      dinner/table-7: compares order (generation 1, rv 8) with the kitchen
}
