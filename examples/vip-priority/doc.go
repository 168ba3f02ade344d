// Command vip-priority runs the vip-priority lesson of the restaurant; see
// [lessons.VIPPriority] for what it shows.
//
//	go run ./examples/vip-priority
package main
