package httpapi

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kitchensync/kitchensync/apiserver/meta"
)

// fieldManager returns the field manager of a write: the fieldManager
// parameter, or else the client's user agent up to its first "/"
// ("kubectl" for "kubectl/v1.32.0 (linux/amd64) ..."), printable runes
// only and at most 128 bytes, as kube-apiserver derives it. Server-side
// apply takes only the parameter.
func fieldManager(r *http.Request) string {
	if m := r.URL.Query().Get("fieldManager"); m != "" {
		return m
	}
	prefix, _, _ := strings.Cut(r.UserAgent(), "/")
	var b strings.Builder
	for _, c := range prefix {
		if !unicode.IsPrint(c) {
			continue
		}
		if b.Len()+utf8.RuneLen(c) > 128 {
			break
		}
		b.WriteRune(c)
	}
	return b.String()
}

// patchOptions reads the parameters of a PATCH of type pt: dryRun,
// fieldManager (for apply, only the parameter counts) and force.
func patchOptions(r *http.Request, pt meta.PatchType) (meta.PatchOptions, error) {
	v := r.URL.Query()
	dry, err := dryRun(v, "PatchOptions")
	if err != nil {
		return meta.PatchOptions{}, err
	}
	q := &query{v: v}
	opts := meta.PatchOptions{DryRun: dry, Force: q.bool("force"), FieldManager: v.Get("fieldManager")}
	if pt != meta.ApplyPatchType {
		opts.FieldManager = fieldManager(r)
	}
	return opts, q.err
}
