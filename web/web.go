// Package web holds the browser front end of the play server: plain HTML,
// CSS and JavaScript modules, embedded in the binary so that nothing is
// fetched or built at run time.
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files is the front end's file tree, rooted so that index.html is at its
// top. The server serves it for every path that is not an API route, and
// answers /g/<id> with index.html (the page reads the game id from the URL).
var Files fs.FS = mustSub(static, "static")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err)
	}
	return sub
}
