package frontend

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEmbeddedFiles(t *testing.T) {
	tests := []struct {
		path string
		want string
	}{
		{"index.html", `src="/static/js/app.js"`},
		{"js/app.js", "import"},
		{"js/protocol.js", "export function"},
		{"js/session.js", "export function"},
		{"js/views/players.js", "export class"},
		{"js/i18n.js", "export"},
		{"css/app.css", "--board"},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			b, err := fs.ReadFile(FS(), tc.path)
			require.NoError(t, err)
			require.True(t, strings.Contains(string(b), tc.want), "%s should contain %q", tc.path, tc.want)
		})
	}
}

func TestIndexHTML(t *testing.T) {
	require.Contains(t, string(IndexHTML()), "<!doctype html>")
}

func TestNoTestsEmbedded(t *testing.T) {
	err := fs.WalkDir(FS(), ".", func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		require.False(t, strings.HasSuffix(p, ".test.js"), "test file embedded: %s", p)
		return nil
	})
	require.NoError(t, err)
}

func TestAssetsAndVersion(t *testing.T) {
	a, ok := Lookup("js/app.js")
	require.True(t, ok)
	require.Contains(t, string(a.Body), "import")
	require.Regexp(t, `^W/"[0-9a-f]{16}"$`, a.ETag)
	_, ok = Lookup("../embed.go")
	require.False(t, ok)
	b, _ := Lookup("css/app.css")
	require.NotEqual(t, a.ETag, b.ETag)

	require.Regexp(t, `^v-[0-9a-f]{12}$`, Version())
	p := string(Page().Body)
	require.Contains(t, p, `src="/static/`+Version()+`/js/app.js"`)
	require.Contains(t, p, `href="/static/`+Version()+`/css/app.css"`)
	require.NotContains(t, p, `"/static/js/`, "every asset URL is versioned")
}
