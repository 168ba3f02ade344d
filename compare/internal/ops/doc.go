// Package ops generates seeded operation sequences that the differential
// tests feed, unchanged, to a kitchensync implementation and to its
// client-go or controller-runtime counterpart.
//
// Every generator takes a *rand.Rand, so a failing sequence is reproduced
// from its seed alone. The sequences are plain data (no types from either
// library), and each harness maps them onto its own API.
package ops
