package main

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// narrate wraps h so that every request is told on one line once it is
// answered: "[apiserver] GET /apis/menu.example.com/v1/... 200". A watch
// is told when it starts streaming, and again when it ends.
func narrate(out io.Writer, h http.Handler) http.Handler {
	var mu sync.Mutex // one line at a time
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format, args...)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		target := r.URL.Path
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		// What a client sends is quoted unless it is plain, so that a
		// path with escape sequences or a newline cannot colour the
		// terminal or forge a line of narration.
		method := printable(r.Method)
		target = printable(target)
		rec.onStream = func(code int) { say("[apiserver] %s %s %d (watching)\n", method, target, code) }
		h.ServeHTTP(rec, r)
		if rec.streaming {
			say("[apiserver] %s %s watch ended\n", method, target)
			return
		}
		say("[apiserver] %s %s %d\n", method, target, rec.status())
	})
}

// recorder remembers the status code of a response, and notices a
// response that streams (flushes), as a watch does.
type recorder struct {
	http.ResponseWriter
	code      int
	streaming bool
	onStream  func(code int)
}

func (r *recorder) WriteHeader(code int) {
	if r.code == 0 {
		r.code = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) status() int {
	if r.code == 0 {
		return http.StatusOK
	}
	return r.code
}

// Flush passes the flush on; the first one marks a stream.
func (r *recorder) Flush() {
	if !r.streaming {
		r.streaming = true
		r.onStream(r.status())
	}
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer's methods.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// printable returns s as it is when it holds only visible ASCII, and else
// quoted as a Go string ("\x1b[31m...\n"), which shows every byte.
func printable(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return strconv.Quote(s)
		}
	}
	return s
}
