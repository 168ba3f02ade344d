package liveview

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// asset is one of the page's static files, ready to serve: its bytes,
// gzipped once, and a tag that changes when its bytes do.
type asset struct {
	typ        string
	plain, gz  []byte
	tag        string // the first hex digits of its SHA-256
	revalidate bool   // index.html: asked again each time (its assets' tags change)
}

// assets are the page's files by URL path: "/", "/static/app.js", ...
type assets map[string]*asset

// loadAssets reads the embedded files. The page's links to its script,
// stylesheet and icon carry their tags (?v=TAG), so that a browser may
// keep them for a year and still gets new ones the moment they change.
func loadAssets(files fs.FS) assets {
	a := assets{}
	names, _ := fs.Glob(files, "*")
	for _, name := range names {
		if name == "index.html" {
			continue
		}
		b, _ := fs.ReadFile(files, name)
		a["/static/"+name] = newAsset(name, b)
	}
	index, _ := fs.ReadFile(files, "index.html")
	for p, x := range a {
		index = bytes.ReplaceAll(index, []byte(`"`+p+`"`), []byte(`"`+p+"?v="+x.tag+`"`))
	}
	a["/"] = newAsset("index.html", index)
	a["/"].revalidate = true
	a["/favicon.ico"] = a["/static/favicon.svg"]
	return a
}

func newAsset(name string, b []byte) *asset {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	sum := sha256.Sum256(b)
	return &asset{typ: mime.TypeByExtension(path.Ext(name)), plain: b, gz: z.Bytes(), tag: hex.EncodeToString(sum[:6])}
}

// serve answers GET for the asset at r.URL.Path: gzipped when the browser
// takes it, with an ETag, for a year when the URL names its tag.
func (a assets) serve(w http.ResponseWriter, r *http.Request) {
	x := a[r.URL.Path]
	if x == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", x.typ)
	h.Set("Vary", "Accept-Encoding")
	h.Set("ETag", `"`+x.tag+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
	switch {
	case x.revalidate:
		h.Set("Cache-Control", "no-cache")
	case r.URL.Query().Get("v") == x.tag:
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	default:
		h.Set("Cache-Control", "public, max-age=300")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, `"`+x.tag+`"`) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := x.plain
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = x.gz
	}
	_, _ = w.Write(body)
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
