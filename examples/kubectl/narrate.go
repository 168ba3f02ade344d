package main

import (
	"fmt"
	"io"
	"net/http"
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
		rec.onStream = func(code int) { say("[apiserver] %s %s %d (watching)\n", r.Method, target, code) }
		h.ServeHTTP(rec, r)
		if rec.streaming {
			say("[apiserver] %s %s watch ended\n", r.Method, target)
			return
		}
		say("[apiserver] %s %s %d\n", r.Method, target, rec.status())
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
