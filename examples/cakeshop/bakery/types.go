package bakery

import (
	"slices"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// Group and Version of the cake shop's API, as a CRD would declare them.
const (
	Group   = "bakery.example.com"
	Version = "v1"
)

// The resources of the cake shop's kinds.
var (
	CakeResource      = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "cakes"}
	BakerPoolResource = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "bakerpools"}
	BakerResource     = meta.GroupVersionResource{Group: Group, Version: Version, Resource: "bakers"}
)

// Cake is the order form (订单): a custom resource whose spec is what the
// customer wants and whose status is how far the kitchen has got. It lives
// in a namespace, and a namespace is a branch (分店).
type Cake struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            CakeSpec   `json:"spec"`
	Status          CakeStatus `json:"status,omitzero"`
}

// CakeSpec is the desired state: the fields of the order form.
type CakeSpec struct {
	// Flavor of the sponge, e.g. "double-chocolate" (蛋糕类型).
	Flavor string `json:"flavor"`
	// Size is the diameter in inches (尺寸), 4 to 16.
	Size int `json:"size"`
	// Layers of sponge, 1 to 10; 0 means 1.
	Layers int `json:"layers,omitempty"`
	// Decoration is the text of the plaque, e.g. "Happy Birthday" (装饰要求).
	Decoration string `json:"decoration,omitempty"`
	// DecorationComplexity is "simple" (the default), "fancy" or "extreme".
	// Under load the baker may simplify a fancy decoration (degraded service).
	DecorationComplexity string `json:"decorationComplexity,omitempty"`
	// PickupTime is the shop time of day the customer comes, "HH:MM" (取货时间).
	PickupTime string `json:"pickupTime,omitempty"`
	// Notes are free text for the baker (特殊说明).
	Notes string `json:"notes,omitempty"`
	// Allergies the kitchen must respect, e.g. ["nuts"] (坚果过敏).
	Allergies []string `json:"allergies,omitempty"`
	// Resources the cake needs from the kitchen.
	Resources CakeResources `json:"resources,omitzero"`
	// Priority orders the work: 100 for a regular order, 1000 for a VIP.
	// 0 means 100.
	Priority int `json:"priority,omitempty"`
}

// CakeResources are the kitchen resources an order asks for, written like
// Kubernetes quantities.
type CakeResources struct {
	// MaxOvenTime bounds the baking, a duration such as "6h".
	MaxOvenTime string `json:"maxOvenTime,omitempty"`
	// IcingMemory is the chilled icing storage the cake needs while it is
	// decorated, e.g. "2GB" or "512MB".
	IcingMemory string `json:"icingMemory,omitempty"`
}

// Phase is the coarse state of an order.
type Phase string

// The phases of a cake.
const (
	PhasePending    Phase = "Pending"
	PhaseBaking     Phase = "Baking"
	PhaseDecorating Phase = "Decorating"
	PhaseCompleted  Phase = "Completed"
	PhaseFailed     Phase = "Failed"
)

// Step names one step of making a cake, in order. Status.Checkpoint holds
// the last finished one, so a baker who was interrupted resumes after it.
type Step string

// The steps, in the order the baker does them.
const (
	StepNone        Step = ""
	StepIngredients Step = "ingredients"
	StepBatter      Step = "batter"
	StepSponge      Step = "sponge"
	StepFrosting    Step = "frosting"
	StepDecoration  Step = "decoration"
	StepBoxed       Step = "boxed"
)

// Steps lists every step in order.
var Steps = []Step{StepIngredients, StepBatter, StepSponge, StepFrosting, StepDecoration, StepBoxed}

// stepIndex returns the position of s in Steps, or -1 for StepNone.
func stepIndex(s Step) int { return slices.Index(Steps, s) }

// CakeStatus is the observed state, written by the baker through the status
// subresource.
type CakeStatus struct {
	Phase Phase `json:"phase,omitempty"`
	// Checkpoint is the last step finished (断点), for resuming.
	Checkpoint Step `json:"checkpoint,omitempty"`
	// ObservedGeneration is the generation of the spec the status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Frosting is the recipe actually used, e.g. "buttercream".
	Frosting string `json:"frosting,omitempty"`
	// Conditions are the details: [ConditionSpongeReady], [ConditionRecipe],
	// [ConditionDegraded] and "Ready".
	Conditions []meta.Condition `json:"conditions,omitempty"`
}

// The condition types the baker sets, with [meta.SetStatusCondition].
const (
	// ConditionSpongeReady is True once the sponge is out of the oven.
	ConditionSpongeReady = "SpongeReady"
	// ConditionRecipe is True with reason FallbackRecipe when the usual
	// frosting ran out and another was used.
	ConditionRecipe = "RecipeSubstituted"
	// ConditionDegraded is True with reason SkippedDecoration when a fancy
	// decoration was simplified under load.
	ConditionDegraded = "Degraded"
)

// DeepCopyObject returns a copy of c that shares no memory with it.
func (c *Cake) DeepCopyObject() meta.Object {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	out.Spec.Allergies = slices.Clone(c.Spec.Allergies)
	out.Status.Conditions = slices.Clone(c.Status.Conditions)
	return &out
}

// LayerCount returns the number of layers, at least 1.
func (s CakeSpec) LayerCount() int { return max(1, s.Layers) }

// EffectivePriority returns the priority, 100 when unset.
func (s CakeSpec) EffectivePriority() int {
	if s.Priority == 0 {
		return PriorityRegular
	}
	return s.Priority
}

// The priorities of the story: a regular order and a VIP's.
const (
	PriorityRegular = 100
	PriorityVIP     = 1000
)

// Deposit is what the customer pays when ordering, in yuan: 20 per inch
// per layer. It is refunded if the order is cancelled.
func (s CakeSpec) Deposit() int { return 20 * s.Size * s.LayerCount() }

// BakerPool is a pool of bakers that scales like a Deployment under a
// HorizontalPodAutoscaler: between MinReplicas and MaxReplicas, aiming at
// TargetUtilization percent busy.
type BakerPool struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            BakerPoolSpec   `json:"spec"`
	Status          BakerPoolStatus `json:"status,omitzero"`
}

// BakerPoolSpec is the HPA's spec: min 2, max 10, target 70% in the story.
type BakerPoolSpec struct {
	MinReplicas       int `json:"minReplicas"`
	MaxReplicas       int `json:"maxReplicas"`
	TargetUtilization int `json:"targetUtilization"`
}

// BakerPoolStatus records the autoscaler's last decision.
type BakerPoolStatus struct {
	Replicas        int `json:"replicas"`
	DesiredReplicas int `json:"desiredReplicas"`
	Utilization     int `json:"utilization"`
}

// DeepCopyObject returns a copy of p that shares no memory with it.
func (p *BakerPool) DeepCopyObject() meta.Object {
	out := *p
	out.ObjectMeta = p.ObjectMeta.DeepCopy()
	return &out
}

// Baker is a pod-like temporary baker (临时糕点师), owned by a BakerPool
// through an owner reference.
type Baker struct {
	meta.TypeMeta   `json:",inline"`
	meta.ObjectMeta `json:"metadata"`
	Spec            BakerSpec `json:"spec"`
}

// BakerSpec says which pool the baker works for.
type BakerSpec struct {
	Pool string `json:"pool"`
}

// DeepCopyObject returns a copy of b that shares no memory with it.
func (b *Baker) DeepCopyObject() meta.Object {
	out := *b
	out.ObjectMeta = b.ObjectMeta.DeepCopy()
	return &out
}
