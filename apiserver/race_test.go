//go:build race

package apiserver_test

func init() { raceEnabled = true }
