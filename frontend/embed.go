// Package frontend holds the static web app of Gomoku Arena, embedded in the binary.
//
// The server serves Page() for "/" and "/r/{id}" and Lookup(path) under /static/ (assets.go).
// See frontend/README.md for the expected routes.
package frontend

import (
	"embed"
	"io/fs"
)

// files holds everything under static/ (index.html, css/, js/, img/).
//
//go:embed static
var files embed.FS

// FS returns the static files rooted at the static directory: "index.html", "js/app.js",
// "css/app.css", ... Serve it under /static/ (strip the prefix) and serve "index.html"
// for "/" and "/r/{id}".
func FS() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		// fs.Sub only fails for an invalid path; "static" is a constant valid path.
		panic("frontend: " + err.Error())
	}
	return sub
}

// IndexHTML returns the single page shell served for "/" and "/r/{id}".
func IndexHTML() []byte {
	b, err := fs.ReadFile(FS(), "index.html")
	if err != nil {
		panic("frontend: index.html not embedded: " + err.Error())
	}
	return b
}
