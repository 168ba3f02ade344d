package httpapi

import (
	"io"
	"net/http"

	"github.com/kitchensync/kitchensync/apiserver"
	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// writeListJSON answers a list as JSON from the server's stored encodings
// ([apiserver.ResourceClient.WriteListJSON]): the same bytes as writeJSON
// of the List, without encoding every object again, written as they are
// made rather than once whole.
func writeListJSON(w http.ResponseWriter, r *http.Request, c *apiserver.ResourceClient, opts meta.ListOptions) error {
	started := false
	err := c.WriteListJSON(r.Context(), opts, func() io.Writer {
		started = true
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		return w
	})
	if started {
		_, _ = io.WriteString(w, "\n")
		return nil // an error now is the client's: it is gone
	}
	return err
}

// writeRawJSON sends body, already encoded, as writeJSON sends a value.
func writeRawJSON(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(append(body, '\n'))
}
