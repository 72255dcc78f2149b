package server

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/frontend"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// rawResponse is an HTTP answer as the wire carried it (no transparent gunzip).
type rawResponse struct {
	status int
	header http.Header
	body   []byte
}

// raw sends one request with the given headers and returns the answer undecoded.
func (e *testEnv) raw(method, path string, header map[string]string) rawResponse {
	e.t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+path, nil)
	require.NoError(e.t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	res, err := (&http.Client{Transport: tr}).Do(req)
	require.NoError(e.t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(e.t, err)
	return rawResponse{res.StatusCode, res.Header, b}
}

func (r rawResponse) errorCode(t *testing.T) string {
	t.Helper()
	var er apiErr
	require.NoError(t, json.Unmarshal(r.body, &er), "%s", r.body)
	return er.Error.Code
}

// TestSecurityHeaders: every kind of response (page, asset, API, error) carries the
// policy headers; the policy allows no inline script or style and names the WebSocket.
func TestSecurityHeaders(t *testing.T) {
	e := newEnv(t, nil)
	host := strings.TrimPrefix(e.ts.URL, "http://")
	for _, p := range []string{"/", "/r/abc", "/static/js/app.js", "/api/engines", "/api/rooms/nosuch", "/nope", "/api/nope", "/healthz"} {
		t.Run(p, func(t *testing.T) {
			h := e.raw("GET", p, nil).header
			csp := h.Get("Content-Security-Policy")
			for _, want := range []string{"default-src 'self'", "script-src 'self';", "style-src 'self';", "frame-ancestors 'none'",
				"object-src 'none'", "base-uri 'none'", "connect-src 'self' ws://" + host + " wss://" + host + ";"} {
				require.Contains(t, csp, want)
			}
			require.NotContains(t, csp, "unsafe")
			require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
			require.Equal(t, "same-origin", h.Get("Referrer-Policy"))
			require.Equal(t, "DENY", h.Get("X-Frame-Options"))
		})
	}
}

func TestContentSecurityPolicyHost(t *testing.T) {
	tests := []struct {
		host    string
		connect string
	}{
		{"gomoku.example", "connect-src 'self' ws://gomoku.example wss://gomoku.example;"},
		{"127.0.0.1:8080", "connect-src 'self' ws://127.0.0.1:8080 wss://127.0.0.1:8080;"},
		{"[::1]:8080", "connect-src 'self' ws://[::1]:8080 wss://[::1]:8080;"},
		{"", "connect-src 'self';"},
		{"evil; script-src *", "connect-src 'self';"},
		{"a'b", "connect-src 'self';"},
	}
	for _, tc := range tests {
		require.Contains(t, contentSecurityPolicy(tc.host), tc.connect, tc.host)
	}
}

// TestMethodNotAllowed: a known route with another method is 405 method_not_allowed
// with an Allow header; an unknown route is 404.
func TestMethodNotAllowed(t *testing.T) {
	e := newEnv(t, nil)
	tests := []struct {
		method, path string
		allow        []string
	}{
		{"DELETE", "/api/rooms", []string{"GET", "HEAD", "POST"}},
		{"PUT", "/api/players/me", []string{"GET", "HEAD", "PATCH"}},
		{"GET", "/api/players", []string{"POST"}},
		{"POST", "/api/rooms/abc", []string{"GET", "HEAD"}},
		{"DELETE", "/api/engines", []string{"GET", "HEAD"}},
		{"POST", "/ws/rooms/abc", []string{"GET"}},
		{"POST", "/", []string{"GET", "HEAD"}},
		{"PUT", "/static/js/app.js", []string{"GET", "HEAD"}},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := e.raw(tc.method, tc.path, nil)
			require.Equal(t, http.StatusMethodNotAllowed, r.status, "%s", r.body)
			require.Equal(t, protocol.CodeMethodNotAllowed, r.errorCode(t))
			for _, m := range tc.allow {
				require.Contains(t, r.header.Get("Allow"), m)
			}
		})
	}
	r := e.raw("GET", "/api/nothing", nil)
	require.Equal(t, http.StatusNotFound, r.status)
	require.Equal(t, protocol.CodeNotFound, r.errorCode(t))
}

// TestHeadWhereGet: HEAD answers like GET, without a body.
func TestHeadWhereGet(t *testing.T) {
	e := newEnv(t, nil)
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	for _, p := range []string{"/", "/r/" + id, "/static/js/app.js", "/static/" + frontend.Version() + "/css/app.css",
		"/api/rooms", "/api/rooms/" + id, "/api/rooms/" + id + "/record", "/api/engines", "/api/players/me",
		"/healthz", "/readyz", "/metrics", "/nope", "/api/rooms/nosuch"} {
		t.Run(p, func(t *testing.T) {
			hdr := map[string]string{"Authorization": "Bearer " + pa.Token}
			get, head := e.raw("GET", p, hdr), e.raw("HEAD", p, hdr)
			require.Equal(t, get.status, head.status)
			require.NotEqual(t, http.StatusMethodNotAllowed, head.status)
			require.Equal(t, strings.Split(get.header.Get("Content-Type"), ";")[0], strings.Split(head.header.Get("Content-Type"), ";")[0])
			require.Empty(t, head.body)
		})
	}
}

// TestNotFoundPages: an unknown page is the app's HTML with status 404 (the app shows
// "page not found"), deep paths under a page's route included; API, WebSocket and
// operations paths keep JSON errors.
func TestNotFoundPages(t *testing.T) {
	e := newEnv(t, nil)
	for _, p := range []string{"/", "/r/abc", "/r/abc/", "/learn", "/learn/", "/analysis", "/leaderboard/",
		"/puzzles", "/puzzles/", "/puzzles/vcf-001", "/puzzles/mined-0123456789ab/", "/@/alice", "/@/id/p_x1"} {
		r := e.raw("GET", p, map[string]string{"Accept": "text/html"})
		require.Equal(t, http.StatusOK, r.status, p)
		require.Contains(t, string(r.body), "<!doctype html>", p)
	}
	for _, p := range []string{"/nope", "/r", "/r/", "/lobby/x", "/static/nope.js", "/static/" + frontend.Version() + "/nope.css",
		"/puzzles/x/more", "/puzzles/a%20b", "/r/abc/more", "/learn/x", "/analysis/x", "/leaderboard/x", "/replay",
		"/@/", "/@/alice/more", "/@/id/p_x1/games", "/@/" + strings.Repeat("a", 21)} {
		r := e.raw("GET", p, map[string]string{"Accept": "text/html"})
		require.Equal(t, http.StatusNotFound, r.status, p)
		require.Contains(t, r.header.Get("Content-Type"), "text/html", p)
		require.Contains(t, string(r.body), "<!doctype html>", p)
		require.Equal(t, cacheRevalidate, r.header.Get("Cache-Control"))
	}
	for _, p := range []string{"/api/nope", "/api", "/ws/nope", "/admin/nope", "/api/rooms/x/nope"} {
		r := e.raw("GET", p, map[string]string{"Accept": "text/html"})
		require.Equal(t, http.StatusNotFound, r.status, p)
		require.Contains(t, r.header.Get("Content-Type"), "application/json", p)
		require.Equal(t, protocol.CodeNotFound, r.errorCode(t), p)
	}
}

// TestStaticCaching: the page and assets carry ETags and are revalidated (304); assets
// under the current version prefix are immutable; the page links that prefix.
func TestStaticCaching(t *testing.T) {
	e := newEnv(t, nil)
	v := frontend.Version()
	tests := []struct {
		path, cache, ctype string
		body               []byte
	}{
		{"/", cacheRevalidate, "text/html", frontend.Page().Body},
		{"/r/abc", cacheRevalidate, "text/html", frontend.Page().Body},
		{"/static/js/app.js", cacheRevalidate, "javascript", nil},
		{"/static/" + v + "/js/app.js", cacheImmutable, "javascript", nil},
		{"/static/" + v + "/css/app.css", cacheImmutable, "text/css", nil},
		{"/static/" + v + "/img/favicon.svg", cacheImmutable, "image/svg+xml", nil},
		{"/static/v-000000000000/js/app.js", cacheRevalidate, "javascript", nil}, // an older page
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			r := e.raw("GET", tc.path, nil)
			require.Equal(t, http.StatusOK, r.status)
			require.Equal(t, tc.cache, r.header.Get("Cache-Control"))
			require.Contains(t, r.header.Get("Content-Type"), tc.ctype)
			etag := r.header.Get("ETag")
			require.Regexp(t, `^W/"[0-9a-f]{16}"$`, etag)
			if tc.body != nil {
				require.Equal(t, tc.body, r.body)
			}
			for _, enc := range []string{"", "gzip"} {
				again := e.raw("GET", tc.path, map[string]string{"If-None-Match": etag, "Accept-Encoding": enc})
				require.Equal(t, http.StatusNotModified, again.status, enc)
				require.Empty(t, again.body)
				require.Empty(t, again.header.Get("Content-Encoding"))
			}
			changed := e.raw("GET", tc.path, map[string]string{"If-None-Match": `W/"0000000000000000"`})
			require.Equal(t, http.StatusOK, changed.status)
		})
	}
	require.Contains(t, string(frontend.Page().Body), `"/static/`+v+`/js/app.js"`)
}

// TestGzip: text assets and large API answers are gzip-compressed for clients that
// accept it; small answers and clients that do not are served plain; WebSockets work
// whatever the client's Accept-Encoding.
func TestGzip(t *testing.T) {
	e := newEnv(t, nil)
	app, _ := frontend.Lookup("js/i18n.js")
	r := e.raw("GET", "/static/js/i18n.js", map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, http.StatusOK, r.status)
	require.Equal(t, "gzip", r.header.Get("Content-Encoding"))
	require.Contains(t, r.header.Get("Vary"), "Accept-Encoding")
	require.Less(t, len(r.body), len(app.Body)/2)
	zr, err := gzip.NewReader(strings.NewReader(string(r.body)))
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Equal(t, app.Body, plain)

	r = e.raw("GET", "/", map[string]string{"Accept-Encoding": "gzip"})
	require.Equal(t, "gzip", r.header.Get("Content-Encoding"))
	r = e.raw("GET", "/static/js/i18n.js", nil)
	require.Empty(t, r.header.Get("Content-Encoding"))
	require.Equal(t, app.Body, r.body)
	r = e.raw("GET", "/healthz", map[string]string{"Accept-Encoding": "gzip"})
	require.Empty(t, r.header.Get("Content-Encoding"), "below the minimum length")

	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	c, err := e.dialErr(id, http.Header{"Accept-Encoding": {"gzip"}})
	require.NoError(t, err)
	require.Equal(t, "black", c.hello(pa.Token, 0)["you"].(map[string]any)["role"])
}

// TestRenamePlayer: PATCH /api/players/me changes the name (validated; bad input changes
// nothing); seats taken afterwards carry the new name, a seat already taken keeps its own.
func TestRenamePlayer(t *testing.T) {
	e := newEnv(t, nil)
	pa := e.player("Alice")
	old := e.createRoom(pa.Token, map[string]any{"me": "black"})
	var er apiErr
	tests := []struct {
		name, token string
		body        any
		status      int
		code        string
	}{
		{"empty name", pa.Token, `{"name":"   "}`, http.StatusBadRequest, protocol.CodeBadRequest},
		{"too long", pa.Token, map[string]string{"name": strings.Repeat("x", 25)}, http.StatusBadRequest, protocol.CodeBadRequest},
		{"control character", pa.Token, `{"name":"a\u0007b"}`, http.StatusBadRequest, protocol.CodeBadRequest},
		{"no name", pa.Token, `{}`, http.StatusBadRequest, protocol.CodeBadRequest},
		{"name not a string", pa.Token, `{"name":7}`, http.StatusBadRequest, protocol.CodeBadJSON},
		{"malformed", pa.Token, `{"name":`, http.StatusBadRequest, protocol.CodeBadJSON},
		{"too large", pa.Token, `{"name":"` + strings.Repeat("x", 2000) + `"}`, http.StatusRequestEntityTooLarge, protocol.CodeTooLarge},
		{"no token", "", `{"name":"Eve"}`, http.StatusUnauthorized, protocol.CodeUnauthorized},
		{"unknown token", "nosuchtoken", `{"name":"Eve"}`, http.StatusUnauthorized, protocol.CodeUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			er = apiErr{}
			require.Equal(t, tc.status, e.do("PATCH", "/api/players/me", tc.token, tc.body, &er))
			require.Equal(t, tc.code, er.Error.Code)
			var me struct{ ID, Name string }
			require.Equal(t, http.StatusOK, e.do("GET", "/api/players/me", pa.Token, nil, &me))
			require.Equal(t, "Alice", me.Name, "nothing changed")
		})
	}

	var got struct{ ID, Name string }
	require.Equal(t, http.StatusOK, e.do("PATCH", "/api/players/me", pa.Token, `{"name":"  Alice   Liddell "}`, &got))
	require.Equal(t, pa.ID, got.ID)
	require.Equal(t, "Alice Liddell", got.Name)
	require.Equal(t, http.StatusOK, e.do("GET", "/api/players/me", pa.Token, nil, &got))
	require.Equal(t, "Alice Liddell", got.Name)

	fresh := e.createRoom(pa.Token, map[string]any{"me": "black"})
	var snap room.Snapshot
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms/"+fresh, "", nil, &snap))
	require.Equal(t, "Alice Liddell", snap.Black.Player.Name, "a new seat has the new name")
	w := e.dial(old).hello(pa.Token, 0)
	require.Equal(t, "Alice Liddell", w["you"].(map[string]any)["name"])
	require.Equal(t, http.StatusOK, e.do("GET", "/api/rooms/"+old, "", nil, &snap))
	require.Equal(t, "Alice", snap.Black.Player.Name, "a seat taken before keeps its name")
}
