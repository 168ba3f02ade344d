package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// ConfigError reports a configuration the client cannot use: a kubeconfig
// file that does not parse or names what it does not define, a missing
// in-cluster file, a certificate that does not load. It names the source
// and the field, e.g.
//
//	kubeconfig /home/me/.kube/config: contexts["dev"].context.cluster: cluster "staging" not found
type ConfigError struct {
	// Source is where the configuration came from: "kubeconfig PATH",
	// "in-cluster", or "config" for a [Config] built by hand.
	Source string
	// Field is the offending field, as a path into the source.
	Field string
	// Message says what is wrong with it.
	Message string
}

// Error returns "source: field: message".
func (e *ConfigError) Error() string {
	if e.Field == "" {
		return e.Source + ": " + e.Message
	}
	return e.Source + ": " + e.Field + ": " + e.Message
}

// maxErrorBody is how much of a failed response is read to find its
// Status: more is never needed, and a misbehaving server cannot make the
// client read without end.
const maxErrorBody = 1 << 20

// decodeError turns a failed response into the [*meta.StatusError]
// the server sent, so that meta.IsConflict and friends work on it as
// on the in-process server's errors. A body that is not a Status (a
// proxy's HTML page, say) becomes a StatusError with the code and a
// reason guessed from it, as client-go does.
func decodeError(resp *http.Response, body []byte) *meta.StatusError {
	var st meta.Status
	if err := json.Unmarshal(body, &st); err == nil && st.Kind == "Status" && st.Status != "Success" {
		if st.Code == 0 {
			st.Code = int32(resp.StatusCode)
		}
		return &meta.StatusError{ErrStatus: st}
	}
	msg := strings.TrimSpace(string(body))
	if len(msg) > 200 {
		msg = msg[:200] + "..."
	}
	if msg == "" {
		msg = http.StatusText(resp.StatusCode)
	}
	return &meta.StatusError{ErrStatus: meta.Status{
		TypeMeta: meta.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   "Failure",
		Code:     int32(resp.StatusCode),
		Reason:   meta.ReasonForCode(int32(resp.StatusCode)),
		Message:  fmt.Sprintf("the server responded with the status code %d but did not return more information: %s", resp.StatusCode, msg),
	}}
}
