package resttest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"testing"

	"github.com/kitchensync/kitchensync/apiserver/rest"
)

// Server serves a handler over in-memory connections. Make one with
// [NewServer]; it is closed when the test ends.
type Server struct {
	// Config reaches the server: plain HTTP to "http://localhost" (a
	// loopback name, which httpapi's door lets in by default), dialed
	// through the in-memory listener. Copy it and set the client's
	// manners (QPS, timeout) as needed.
	Config rest.Config

	srv *http.Server
	ln  *listener
}

// NewServer starts serving h and returns the server. When tb ends, the
// server stops and closes every connection (watches included), so that
// no goroutine outlives the test, as a synctest bubble requires.
func NewServer(tb testing.TB, h http.Handler) *Server {
	ln := &listener{conns: make(chan net.Conn), done: make(chan struct{})}
	s := &Server{srv: &http.Server{Handler: h}, ln: ln}
	s.Config = rest.Config{Host: "http://localhost", Dial: ln.dial}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = s.srv.Serve(ln)
	}()
	tb.Cleanup(func() {
		_ = s.srv.Close()
		<-served
	})
	return s
}

// listener is a [net.Listener] whose connections come from dial.
type listener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

var errClosed = errors.New("resttest: listener closed")

// dial makes a connection pair and hands the server's end to Accept.
func (l *listener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, errClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Accept waits for the next dialed connection.
func (l *listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, errClosed
	}
}

// Close stops Accept and any dial waiting for it.
func (l *listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr returns a placeholder address.
func (l *listener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "in-memory" }
