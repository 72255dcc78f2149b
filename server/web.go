package server

import (
	"bytes"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/gomoku-arena/gomoku/frontend"
)

// getHead are the methods of every read-only route: HEAD is allowed wherever GET is.
var getHead = []string{http.MethodGet, http.MethodHead}

// Cache policies of the web app: the page and unversioned assets are revalidated on
// every use (a 304 against their ETag); assets under the current version prefix never
// change (frontend.Version).
const (
	cacheRevalidate = "no-cache"
	cacheImmutable  = "public, max-age=31536000, immutable"
)

// securityHeaders sets the headers every response carries. The policy allows scripts,
// styles, images and fonts from this origin only (no inline script or style attribute:
// the player's token lives in localStorage, so an injected script must not run), network
// connections to this origin and its WebSocket, and no framing.
func securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy(c.Request().Host))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		return next(c)
	}
}

// contentSecurityPolicy is the policy for a request to host. 'self' covers ws: and wss:
// of the same host in current browsers only, so the WebSocket origins are also named
// (both schemes: behind a TLS proxy the server sees plain HTTP).
func contentSecurityPolicy(host string) string {
	connect := "'self'"
	if cspHost(host) {
		connect += " ws://" + host + " wss://" + host
	}
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; " +
		"connect-src " + connect + "; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}

// cspHost reports whether a Host header can go into the policy as is (a host name or
// address and a port: nothing that could end a directive).
func cspHost(host string) bool {
	if host == "" || len(host) > 255 {
		return false
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:[]", r)) {
			return false
		}
	}
	return true
}

// gzipMW compresses responses of 1 KiB and more for clients that accept gzip, except
// WebSocket upgrades, range requests (offsets refer to the plain body), HEAD, and
// /metrics (the Prometheus handler compresses by itself).
func gzipMW() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		MinLength: 1024,
		Skipper: func(c echo.Context) bool {
			r := c.Request()
			return r.Method == http.MethodHead || r.Header.Get("Upgrade") != "" || r.Header.Get("Range") != "" ||
				r.URL.Path == "/metrics" || r.URL.Path == "/api/analysis/stream" // events are flushed one by one
		},
	})
}

// machinePath reports whether a path belongs to the API, WebSocket or operations
// endpoints, whose errors are JSON; every other path is a page, whose 404 is HTML.
func machinePath(p string) bool {
	for _, pre := range []string{"/api/", "/ws/", "/admin/"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	switch p {
	case "/api", "/ws", "/admin", "/healthz", "/readyz", "/metrics":
		return true
	}
	return false
}

// pagePath matches the pages of the web app, as its router (route() in app.js) reads
// them, each with an optional trailing slash: the lobby, a room (/r/{id}), the
// classroom, the analysis board, the leaderboard, the puzzle trainer (/puzzles,
// /puzzles/{id}) and a player (/@/{username}, /@/id/{id}).
var pagePath = regexp.MustCompile(`^/(?:r/[A-Za-z0-9_-]{1,64}/?|(?:learn|analysis|leaderboard)/?|puzzles(?:/[A-Za-z0-9_.-]{1,64})?/?|@/[A-Za-z0-9_-]{1,20}/?|@/id/[A-Za-z0-9_-]{1,64}/?)?$`)

// pageRoutes are the routes of page: pagePath's prefixes (the router's own matching of
// a parameter lets deeper paths through, so page checks the whole path).
var pageRoutes = []string{"/", "/r/*", "/learn", "/learn/", "/analysis", "/analysis/",
	"/leaderboard", "/leaderboard/", "/puzzles", "/puzzles/*", "/@/*"}

// page serves the single page of the web app for the paths of its pages (pagePath);
// any other path under its routes (/puzzles/x/more) is not found.
func page(c echo.Context) error {
	if !pagePath.MatchString(c.Request().URL.Path) {
		return echo.ErrNotFound
	}
	a := frontend.Page()
	serveAsset(c, "index.html", a, cacheRevalidate)
	return nil
}

// notFoundPage answers an unknown page with the app itself and status 404: the app shows
// "page not found" with the top bar and a way back, in the user's language.
func notFoundPage(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", cacheRevalidate)
	return c.HTMLBlob(http.StatusNotFound, frontend.Page().Body)
}

// staticFile serves GET /static/*: an embedded file, with its ETag for revalidation;
// under /static/<version>/ it is cached for good when version is the current one (a page
// of an older version still gets files, revalidated, while a new version rolls out).
func staticFile(c echo.Context) error {
	p := c.Param("*")
	policy := cacheRevalidate
	if v, rest, ok := strings.Cut(p, "/"); ok && strings.HasPrefix(v, "v-") {
		p = rest
		if v == frontend.Version() {
			policy = cacheImmutable
		}
	}
	a, ok := frontend.Lookup(p)
	if !ok {
		return echo.ErrNotFound
	}
	serveAsset(c, p, a, policy)
	return nil
}

// serveAsset answers with a's body, or 304 when the client's copy is current
// (http.ServeContent compares If-None-Match with the ETag, answers HEAD and ranges, and
// sets Content-Type from the name's extension).
func serveAsset(c echo.Context, name string, a frontend.Asset, cache string) {
	h := c.Response().Header()
	h.Set("ETag", a.ETag)
	h.Set("Cache-Control", cache)
	http.ServeContent(c.Response(), c.Request(), name, time.Time{}, bytes.NewReader(a.Body))
}
