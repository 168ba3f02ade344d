// Command rush-hour runs the rush-hour lesson of the restaurant; see
// [lessons.RushHour] for what it shows.
//
//	go run ./examples/rush-hour
package main
