// Package resttest serves an [http.Handler] over an in-memory network, so
// that a [rest.Client] can talk HTTP to it inside a testing/synctest
// bubble, the way net/http/httptest serves one on a loopback port.
//
// A loopback connection cannot be used in a bubble: a goroutine blocked
// reading a socket is not "durably blocked", so virtual time would never
// move while a watch is open. Connections here are [net.Pipe] pairs,
// which block on channels, so a client that waits on a watch lets time
// jump as any other goroutine of the bubble does.
package resttest
