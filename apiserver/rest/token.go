package rest

import (
	"os"
	"strings"
	"sync"
	"time"
)

// tokenReread is how long a token read from a file is used before the
// file is read again, as client-go's cached token source does: kubelet
// rotates projected service-account tokens well before they expire.
const tokenReread = time.Minute

// tokenSource gives the bearer token for each request: a fixed one, or
// the content of a file, read again at most once per [tokenReread].
type tokenSource struct {
	token string // fixed token, used when file is ""
	file  string

	mu     sync.Mutex // guards cached and readAt
	cached string
	readAt time.Time
}

// get returns the token to send at now ("" for none).
func (s *tokenSource) get(now time.Time) (string, error) {
	if s.file == "" {
		return s.token, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cached != "" && now.Sub(s.readAt) < tokenReread {
		return s.cached, nil
	}
	b, err := os.ReadFile(s.file)
	if err != nil {
		if s.cached != "" {
			return s.cached, nil // keep the last good token through a bad read
		}
		return "", &ConfigError{Source: "config", Field: "tokenFile", Message: err.Error()}
	}
	s.cached, s.readAt = strings.TrimSpace(string(b)), now
	return s.cached, nil
}
