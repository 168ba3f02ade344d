package compare

import (
	"math/rand/v2"
	"testing"
	"testing/synctest"

	"github.com/kitchensync/kitchensync/compare/internal/ops"
)

func TestZZMineSameRV(t *testing.T) {
	quietClientGo()
	v := informerVariants[0]
	found := 0
	for seed := range uint64(2000) {
		initial, steps := ops.InformerOps(rand.New(rand.NewPCG(seed, 19)), 40, 8)
		var ks, cg informerOutcome
		synctest.Test(t, func(t *testing.T) {
			ks, cg, _ = runInformers(t, v.opts, initial, steps, true)
		})
		if ks.sameRV != cg.sameRV {
			t.Logf("seed %d: cg %d ks %d\nsteps:\n%s\ncg calls %q\nks calls %q", seed, cg.sameRV, ks.sameRV, formatOps(steps), cg.calls, ks.calls)
			found++
			if found > 1 {
				return
			}
		}
	}
}
