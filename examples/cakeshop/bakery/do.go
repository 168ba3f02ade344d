package bakery

import (
	"context"
	"time"

	"github.com/kitchensync/kitchensync/reconcile"
)

// How long the steps take, in shop time (baking depends on the layers).
const (
	prepTime     = 5 * time.Minute
	batterTime   = 10 * time.Minute
	frostingTime = 10 * time.Minute
	boxTime      = 5 * time.Minute
)

// decorationTime returns how long a decoration of the given complexity takes.
func decorationTime(complexity string) time.Duration {
	switch complexity {
	case "fancy":
		return 30 * time.Minute
	case "extreme":
		return 60 * time.Minute
	}
	return 10 * time.Minute
}

// stepLogs are the debug log messages of the steps.
var stepLogs = map[Step]string{
	StepIngredients: "准备原料 (preparing the ingredients)",
	StepBatter:      "开始搅拌面糊 (mixing the batter)",
	StepSponge:      "烘烤蛋糕胚 (baking the sponge)",
	StepFrosting:    "抹糖霜 (frosting)",
	StepDecoration:  "装饰 (decorating)",
	StepBoxed:       "装盒 (boxing)",
}

// do performs one step on key's cake, taking its shop time, and records it
// in the kitchen. who is the baker doing it.
func (b *CakeReconciler) do(ctx context.Context, who, key string, cake *Cake, step Step) error {
	s, name := cake.Spec, cake.Name
	// 5. Detailed logs (详细记录日志): log.V(1).Info in controller-runtime is
	// Debug in log/slog.
	reconcile.LoggerFrom(ctx).Debug(stepLogs[step], "step", string(step), "baker", who)
	switch step {
	case StepIngredients:
		bench := ""
		if contains(s.Allergies, "nuts") {
			bench = " on the nut-free bench"
		}
		b.detail(who, key, "%s: prepare ingredients for the %s sponge%s", name, s.Flavor, bench)
		if err := b.Clock.Sleep(ctx, prepTime); err != nil {
			return err
		}
		b.Kitchen.prepare(key, s)
		return nil
	case StepBatter:
		b.detail(who, key, "%s: mix the batter", name)
		if err := b.Clock.Sleep(ctx, batterTime); err != nil {
			return err
		}
		b.Kitchen.record(key, StepBatter, nil)
		return nil
	case StepSponge:
		return b.bake(ctx, key, cake)
	case StepFrosting:
		return b.frost(ctx, who, key, cake)
	case StepDecoration:
		return b.decorate(ctx, who, key, cake)
	}
	b.detail(who, key, "%s: box it", name)
	if err := b.Clock.Sleep(ctx, boxTime); err != nil {
		return err
	}
	b.Kitchen.record(key, StepBoxed, nil)
	return nil
}

// bake heats an oven and bakes the sponge; the oven may fail to heat and
// the sponge may collapse, both errors the controller retries.
func (b *CakeReconciler) bake(ctx context.Context, key string, cake *Cake) error {
	if err := b.Kitchen.heat(); err != nil {
		return err
	}
	d := b.Kitchen.bakeTime(cake.Spec)
	if !b.Brief {
		b.Journal.Say("oven", key, "bake", "%s: bake %d× %s sponge, %s", cake.Name, cake.Spec.LayerCount(), cake.Spec.Flavor, FormatShop(d))
	}
	if err := b.Clock.Sleep(ctx, d); err != nil {
		return err
	}
	return b.Kitchen.finishBake(key)
}

// frost frosts the cake, switching to the fallback recipe when the
// buttercream has run out instead of stalling the line.
func (b *CakeReconciler) frost(ctx context.Context, who, key string, cake *Cake) error {
	recipe, fallback := b.Kitchen.takeFrosting()
	if fallback {
		b.Journal.Say(who, key, "fallback", "%s: buttercream ran out → fallback recipe %s (FallbackRecipe)", cake.Name, recipe)
	} else {
		b.detail(who, key, "%s: frost with %s", cake.Name, recipe)
	}
	if err := b.Clock.Sleep(ctx, frostingTime); err != nil {
		return err
	}
	b.Kitchen.record(key, StepFrosting, func(t *Tray) { t.Frosting = recipe })
	return nil
}

// decorate puts the plaque on; under load (degraded service) a fancy
// decoration is simplified.
func (b *CakeReconciler) decorate(ctx context.Context, who, key string, cake *Cake) error {
	complexity := cake.Spec.DecorationComplexity
	simplified := false
	if complexity != "" && complexity != "simple" && b.Kitchen.isBusy() {
		b.Journal.Say(who, key, "degraded", "%s: rush hour → skip the %s decoration, plaque only (SkippedDecoration)", cake.Name, complexity)
		complexity, simplified = "simple", true
	} else if cake.Spec.Decoration != "" {
		b.detail(who, key, "%s: decorate: plaque %q", cake.Name, cake.Spec.Decoration)
	}
	if err := b.Clock.Sleep(ctx, decorationTime(complexity)); err != nil {
		return err
	}
	b.Kitchen.record(key, StepDecoration, func(t *Tray) { t.Decoration, t.Simplified = cake.Spec.Decoration, simplified })
	return nil
}

// detail narrates a step, unless the baker is brief.
func (b *CakeReconciler) detail(who, key, format string, args ...any) {
	if !b.Brief {
		b.Journal.Say(who, key, "step", format, args...)
	}
}
