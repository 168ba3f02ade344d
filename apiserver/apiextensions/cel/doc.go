// Package cel checks the CEL rules of a CustomResourceDefinition's
// schema (x-kubernetes-validations), with github.com/google/cel-go, the
// library Kubernetes itself uses: `self.seats >= self.minSeats` on an
// object, `self == oldSelf` (a transition rule) on a field that may not
// change. [Compile] compiles every rule of a structural schema once;
// [Validator.Validate] evaluates them on an object, and on the object as
// stored for an update.
//
// In the kitchen: the house rules written at the bottom of the order form
// ("a VIP table seats at most eight", "the section cannot change once
// seated"), checked after the boxes themselves are filled in right.
//
// It is a package of its own so that the API server's core, and anyone
// who does not serve CustomResourceDefinitions, never links cel-go.
//
// # Simplifications
//
// The real server types self and oldSelf from the schema, so that a
// rule naming a field the schema does not have fails to compile; here
// they are dynamic, and such a rule fails when it is evaluated ("no such
// key"). Kubernetes' own CEL libraries (quantity, IP, URL, format) are
// not included, only cel-go's strings, sets, lists, math and encoders
// extensions. No cost budget is enforced. Transition rules inside lists
// are not checked (the real server correlates map-list items by key).
package cel
