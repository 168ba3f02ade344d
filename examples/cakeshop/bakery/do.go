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

// begin starts one step on key's cake (every step but the sponge, which
// the oven bakes) and returns how long it takes, in shop time: the baker
// comes back when it is due. who is the baker doing it.
func (b *CakeReconciler) begin(ctx context.Context, who, key string, cake *Cake, step Step) time.Duration {
	s, name := cake.Spec, cake.Name
	// 5. Detailed logs (详细记录日志): log.V(1).Info in controller-runtime is
	// Debug in log/slog.
	reconcile.LoggerFrom(ctx).Debug(stepLogs[step], "step", string(step), "baker", who)
	var d time.Duration
	var apply func(*Tray)
	switch step {
	case StepIngredients:
		bench := ""
		if contains(s.Allergies, "nuts") {
			bench = " on the nut-free bench"
		}
		b.detail(who, key, "%s: prepare ingredients for the %s sponge%s", name, s.Flavor, bench)
		d = prepTime
	case StepBatter:
		b.detail(who, key, "%s: mix the batter", name)
		d = batterTime
	case StepFrosting:
		d, apply = frostingTime, b.frost(who, key, cake)
	case StepDecoration:
		d, apply = b.decorate(who, key, cake)
	default:
		b.detail(who, key, "%s: box it", name)
		d = boxTime
	}
	b.Kitchen.begin(key, s, step, b.Clock.Now()+d, apply)
	return d
}

// frost picks the recipe, switching to the fallback when the buttercream
// has run out instead of stalling the line, and returns what it does to
// the tray.
func (b *CakeReconciler) frost(who, key string, cake *Cake) func(*Tray) {
	recipe, fallback := b.Kitchen.takeFrosting()
	if fallback {
		b.Journal.Say(who, key, "fallback", "%s: buttercream ran out → fallback recipe %s (FallbackRecipe)", cake.Name, recipe)
	} else {
		b.detail(who, key, "%s: frost with %s", cake.Name, recipe)
	}
	return func(t *Tray) { t.Frosting = recipe }
}

// decorate starts the plaque; under load (degraded service) a fancy
// decoration is simplified. It returns how long it takes and what it does
// to the tray.
func (b *CakeReconciler) decorate(who, key string, cake *Cake) (time.Duration, func(*Tray)) {
	complexity := cake.Spec.DecorationComplexity
	simplified := false
	if complexity != "" && complexity != "simple" && b.Kitchen.isBusy() {
		b.Journal.Say(who, key, "degraded", "%s: rush hour → skip the %s decoration, plaque only (SkippedDecoration)", cake.Name, complexity)
		complexity, simplified = "simple", true
	} else if cake.Spec.Decoration != "" {
		b.detail(who, key, "%s: decorate: plaque %q", cake.Name, cake.Spec.Decoration)
	}
	return decorationTime(complexity), func(t *Tray) { t.Simplified = simplified }
}

// detail narrates a step, unless the baker is brief.
func (b *CakeReconciler) detail(who, key, format string, args ...any) {
	if !b.Brief {
		b.Journal.Say(who, key, "step", format, args...)
	}
}
