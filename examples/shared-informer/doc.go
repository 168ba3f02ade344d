// Command shared-informer shows two runners with their own memory, then
// two handlers sharing one, its indexes and a field selector, counting
// the API calls each costs.
//
//	go run ./examples/shared-informer
package main
