package frontend

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"sort"
	"sync"
)

// Asset is an embedded file ready to serve.
type Asset struct {
	Body []byte
	// ETag is a weak validator (W/"…", the first 16 hex digits of the body's SHA-256):
	// weak because the server may send the body gzip-compressed.
	ETag string
}

// assets maps every embedded path ("js/app.js") to its Asset.
var assets = sync.OnceValue(func() map[string]Asset {
	m := map[string]Asset{}
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(FS(), p)
		if err != nil {
			return err
		}
		m[p] = newAsset(b)
		return nil
	})
	if err != nil {
		panic("frontend: walk embedded files: " + err.Error())
	}
	return m
})

func newAsset(b []byte) Asset {
	sum := sha256.Sum256(b)
	return Asset{Body: b, ETag: `W/"` + hex.EncodeToString(sum[:8]) + `"`}
}

// Lookup returns the embedded file at path ("js/app.js", no leading slash).
func Lookup(path string) (Asset, bool) {
	a, ok := assets()[path]
	return a, ok
}

// version is computed once from every file's path and hash.
var version = sync.OnceValue(func() string {
	m := assets()
	paths := make([]string, 0, len(m))
	for p := range m {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		h.Write([]byte(p + "\x00" + m[p].ETag + "\x00"))
	}
	return "v-" + hex.EncodeToString(h.Sum(nil)[:6])
})

// Version is the fingerprint of the whole app ("v-" and 12 hex digits). It changes whenever
// any embedded file changes, so the files under /static/<Version>/ never change and may be
// cached for good. The app's modules import each other by relative paths, so a page
// loaded from that prefix takes every module from it.
func Version() string { return version() }

// page is index.html with its asset URLs under the versioned prefix.
var page = sync.OnceValue(func() Asset {
	b := bytes.ReplaceAll(IndexHTML(), []byte(`"/static/`), []byte(`"/static/`+Version()+`/`))
	return newAsset(b)
})

// Page returns the page served for "/" and "/r/{id}": index.html with its /static/ URLs
// moved under /static/<Version>/.
func Page() Asset { return page() }
