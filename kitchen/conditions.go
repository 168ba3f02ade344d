package kitchen

// The condition types the chef sets on orders, in [OrderStatus.Conditions]
// (written with [meta.SetStatusCondition]).
const (
	// ConditionAccepted is False with reason DishNotOnMenu, UnknownExtra,
	// NoSuchStation or OutOfStock when the order is rejected.
	ConditionAccepted = "Accepted"
	// ConditionStocked is False while the chef waits for a delivery.
	ConditionStocked = "Stocked"
	// ConditionReady is True once every item is cooked.
	ConditionReady = "Ready"
)
