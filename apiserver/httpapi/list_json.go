package httpapi

import (
	"net/http"

	"github.com/kitchensync/kitchensync/apiserver"
)

// writeListJSON answers a list as JSON from the server's stored encodings
// ([apiserver.ResourceClient.ListJSON]): the same bytes as writeJSON of
// the List, without encoding every object again.
func writeListJSON(w http.ResponseWriter, r *http.Request, c *apiserver.ResourceClient, opts apiserver.ListOptions) error {
	body, err := c.ListJSON(r.Context(), opts)
	if err != nil {
		return err
	}
	writeRawJSON(w, http.StatusOK, body)
	return nil
}

// writeRawJSON sends body, already encoded, as writeJSON sends a value.
func writeRawJSON(w http.ResponseWriter, code int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write(append(body, '\n'))
}
