// Package browsertest drives the web app in headless Chromium (chromedp) against an
// in-process gomokud. The tests run only with GOMOKU_BROWSER=1 (CI installs Debian's
// chromium); otherwise they skip. Screenshots of failed tests go to
// GOMOKU_BROWSER_ARTIFACTS (default: a temp dir, logged).
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	cd "github.com/chromedp/chromedp"

	"github.com/gomoku-arena/gomoku/server"
)

// ErrNoBrowser is returned when no Chromium binary is found.
var ErrNoBrowser = errors.New("browsertest: no chromium binary (apt-get install -y chromium)")

// Env is one running gomokud and one headless browser.
type Env struct {
	Base string // http://127.0.0.1:port
	root context.Context
	t    *testing.T
	ctx  context.Context
	stop func()
}

// FindChromium returns the path of a Chromium-like browser.
func FindChromium() (string, error) {
	if p := os.Getenv("GOMOKU_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoBrowser
}

// StartServer starts an in-process gomokud (embedded Redis) on a free loopback port and
// returns its base URL and a stop function.
func StartServer(ctx context.Context, logw io.Writer) (string, func(), error) {
	return startServerAt(ctx, logw, "127.0.0.1:0")
}

// startServerAt starts an in-process gomokud listening on addr (host:port; port 0: a
// free one).
func startServerAt(ctx context.Context, logw io.Writer, addr string) (string, func(), error) {
	cfg := server.DefaultConfig()
	cfg.Addr = addr
	cfg.Logger = slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg.MaxConnsPerIP = 0
	cfg.RateLimit, cfg.RateBurst = 50, 100
	cfg.AbandonGrace = 5 * time.Second
	srv, err := server.New(ctx, cfg)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		return "", nil, err
	}
	done := make(chan error, 1)
	go func() { done <- srv.Start(ln) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
			<-done
		})
	}
	return "http://" + ln.Addr().String(), stop, nil
}

// RestartServer stops gomokud and starts a new one on the same address (so the pages
// keep their origin and localStorage). The embedded store starts empty: every room and
// player is gone, as after a restart of a gomokud without REDIS_URL.
func (e *Env) RestartServer() {
	e.t.Helper()
	e.StopServer()
	e.StartServerAgain()
}

// StopServer stops gomokud (the pages lose their connections and retry).
func (e *Env) StopServer() {
	e.stop()
	e.stop = func() {}
}

// StartServerAgain starts a new gomokud, with an empty embedded store, on the address of
// the stopped one.
func (e *Env) StartServerAgain() {
	e.t.Helper()
	addr := strings.TrimPrefix(e.Base, "http://")
	var err error
	for i := 0; i < 50; i++ { // the old listener's port may take a moment to be free
		base, stop, serr := startServerAt(e.ctx, testWriter{e.t}, addr)
		if err = serr; err == nil {
			e.Base, e.stop = base, stop
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("restart gomokud on %s: %v", addr, err)
}

// Setup skips unless GOMOKU_BROWSER=1, then starts a server and a browser for t.
func Setup(t *testing.T) *Env {
	t.Helper()
	if os.Getenv("GOMOKU_BROWSER") != "1" {
		t.Skip("browser test: set GOMOKU_BROWSER=1 (needs chromium) to run")
	}
	bin, err := FindChromium()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	base, stop, err := StartServer(ctx, testWriter{t})
	if err != nil {
		t.Fatalf("start gomokud: %v", err)
	}
	env := &Env{Base: base, t: t, ctx: ctx, stop: stop}
	t.Cleanup(func() { env.stop() })
	opts := append(cd.DefaultExecAllocatorOptions[:], cd.ExecPath(bin), cd.NoSandbox, cd.WindowSize(1280, 900),
		cd.Flag("disable-dev-shm-usage", true), cd.Flag("autoplay-policy", "no-user-gesture-required"))
	actx, acancel := cd.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	root, rcancel := cd.NewContext(actx)
	t.Cleanup(rcancel)
	if err := cd.Do(root); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	env.root = root
	return env
}

// testWriter sends server logs to t.Log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// Page is one browser user: its own browser context (own localStorage, own identity).
type Page struct {
	t      *testing.T
	ctx    context.Context
	env    *Env
	name   string
	cancel context.CancelFunc
	closed bool

	mu         sync.Mutex
	exceptions []string // uncaught JavaScript exceptions
	csp        []string // Content-Security-Policy violations
}

// cspBinding is the page function through which cspListener reports violations.
const cspBinding = "__gomokuCSPViolation"

// cspListener runs in every document before its own scripts.
const cspListener = `document.addEventListener('securitypolicyviolation', (e) => ` + cspBinding + `(
	e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber + ' ' + (e.sample || '')));`

// TakeCSPViolations returns the policy violations seen so far and forgets them (a test
// that provokes one on purpose).
func (p *Page) TakeCSPViolations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.csp
	p.csp = nil
	return v
}

// Close closes the page's browser context (its WebSocket disconnects).
func (p *Page) Close() {
	p.closed = true
	p.cancel()
}

// NewPage opens a fresh, isolated browser context. A screenshot is saved if the test fails.
func (e *Env) NewPage(t *testing.T, name string) *Page {
	t.Helper()
	p := &Page{t: t, env: e, name: name}
	listen := cd.WithListener(func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			if ev.ExceptionDetails == nil {
				return
			}
			msg := ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
			p.mu.Lock()
			p.exceptions = append(p.exceptions, msg)
			p.mu.Unlock()
		case *runtime.EventBindingCalled:
			if ev.Name == cspBinding {
				p.mu.Lock()
				p.csp = append(p.csp, ev.Payload)
				p.mu.Unlock()
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry != nil && strings.Contains(ev.Entry.Text, "Content Security Policy") {
				p.mu.Lock()
				p.csp = append(p.csp, "console: "+ev.Entry.Text)
				p.mu.Unlock()
			}
		}
	})
	ctx, cancel := cd.NewContext(e.root, cd.WithNewBrowserContext(), listen)
	p.ctx, p.cancel = ctx, cancel
	if err := cd.Do(ctx); err != nil {
		t.Fatalf("%s: new browser context: %v", name, err)
	}
	// Every page runs under the server's Content-Security-Policy; a violation (a refused
	// inline style or script, a blocked connection) is reported from the page through a
	// binding (it survives navigations) and from the console, and fails the test.
	watchCSP := func(ctx context.Context, tg *cd.Target) (cd.Void, error) {
		if _, err := cdp.Call(ctx, tg, runtime.AddBinding, runtime.AddBindingParams{Name: cspBinding}); err != nil {
			return cd.Void{}, err
		}
		if _, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{}); err != nil {
			return cd.Void{}, err
		}
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspListener})
		return cd.Void{}, err
	}
	if _, err := cd.Run(ctx, watchCSP); err != nil {
		t.Fatalf("%s: watch CSP violations: %v", name, err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		for _, ex := range p.exceptions {
			t.Errorf("%s: uncaught JavaScript exception: %s", name, ex)
		}
		for _, v := range p.csp {
			t.Errorf("%s: Content-Security-Policy violation: %s", name, v)
		}
		p.mu.Unlock()
		if t.Failed() && !p.closed {
			p.SaveScreenshot(fmt.Sprintf("FAIL-%s-%s.png", sanitize(t.Name()), name))
		}
		cancel()
	})
	return p
}

func sanitize(s string) string {
	return strings.NewReplacer("/", "_", " ", "_").Replace(s)
}

// ArtifactsDir returns where failure screenshots go.
func ArtifactsDir() string {
	if d := os.Getenv("GOMOKU_BROWSER_ARTIFACTS"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "gomoku-browser-artifacts")
}

// SaveScreenshot writes a PNG of the viewport to ArtifactsDir()/file (or to file when absolute).
func (p *Page) SaveScreenshot(file string) string {
	front := func(ctx context.Context, t *cd.Target) (cd.Void, error) {
		_, err := cdp.Call(ctx, t, page.BringToFront, cdp.Empty{})
		return cd.Void{}, err
	}
	_, _ = cd.Run(p.timeout(10*time.Second*TimeScale), front)
	buf, err := cd.Run(p.timeout(10*time.Second*TimeScale), cd.CaptureScreenshot())
	if err != nil {
		p.t.Logf("%s: screenshot failed: %v", p.name, err)
		return ""
	}
	path := file
	if !filepath.IsAbs(file) {
		_ = os.MkdirAll(ArtifactsDir(), 0o755)
		path = filepath.Join(ArtifactsDir(), file)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Logf("%s: write screenshot: %v", p.name, err)
		return ""
	}
	p.t.Logf("%s: screenshot %s", p.name, path)
	return path
}

func (p *Page) timeout(d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(p.ctx, d)
	p.t.Cleanup(cancel)
	return ctx
}

// TimeScale stretches every wait of the browser tests: CI runs them with the race
// detector next to other packages' tests on 2 cores. A wait ends as soon as its condition
// holds, so a large scale costs time only when a test fails.
var TimeScale = 3 * time.Duration(1)

// Do runs actions with a 20 s (scaled) limit.
func (p *Page) Do(what string, actions ...cd.Action[cd.Void]) {
	p.t.Helper()
	if err := cd.Do(p.timeout(20*time.Second*TimeScale), actions...); err != nil {
		p.t.Fatalf("%s: %s: %v", p.name, what, err)
	}
}

// Open navigates to a path of the server and waits for the app to start.
func (p *Page) Open(path string) {
	p.t.Helper()
	p.Do("open "+path, cd.Navigate(p.env.Base+path), cd.WaitVisible(cd.CSS("#main > *:not(.loading)")))
}

// Eval evaluates a JavaScript expression and returns its JSON-decoded value.
func Eval[T any](p *Page, expr string) T {
	p.t.Helper()
	v, err := cd.Run(p.timeout(10*time.Second*TimeScale), cd.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: eval %q: %v", p.name, expr, err)
	}
	return v
}

// Wait evaluates a JavaScript predicate every 50 ms until it is truthy (limit d, scaled).
// The loop runs here rather than in the page: a page's own timers are throttled when its
// window is not in front, a Runtime.evaluate is not.
func (p *Page) Wait(what, predicate string, d time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(d * TimeScale)
	var lastErr error
	for {
		ok, err := cd.Run(p.timeout(10*time.Second*TimeScale), cd.Evaluate[bool]("!!("+predicate+")"))
		if err == nil && ok {
			return
		}
		lastErr = err
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	state := Eval[string](p, `JSON.stringify(window.__gomoku ? {role: __gomoku.role, conn: __gomoku.conn, phase: __gomoku.game.phase, moves: __gomoku.game.moves.map(m => m.point), status: (document.querySelector('#status')||{}).textContent, trace: __gomoku.trace} : {path: location.pathname, main: document.querySelector('#main').innerText.slice(0, 300)})`)
	p.t.Fatalf("%s: waiting for %s (%s): timeout (last error: %v)\nstate: %s", p.name, what, predicate, lastErr, state)
}

// Click clicks the element matching a CSS selector once it exists and is enabled. The
// click is dispatched from the page (the game page re-renders its panels on every server
// message, so a node found by the driver can be replaced before a mouse click lands).
func (p *Page) Click(sel string) {
	p.t.Helper()
	p.Wait("click "+sel, fmt.Sprintf(`(() => { const el = document.querySelector(%q);
		if (!el || el.disabled || el.offsetParent === null) return false; el.click(); return true; })()`, sel), 10*time.Second)
}

// Moves returns the moves the page shows.
func (p *Page) Moves() []string {
	return Eval[[]string](p, `window.__gomoku ? __gomoku.game.moves.map(m => m.point) : []`)
}

// WaitMoves waits until the page shows n moves.
func (p *Page) WaitMoves(n int) {
	p.t.Helper()
	p.Wait(fmt.Sprintf("%d moves", n), fmt.Sprintf(`window.__gomoku && __gomoku.game.moves.length === %d`, n), 15*time.Second)
}

// WaitRole waits until the connection is open with the given role.
func (p *Page) WaitRole(role string) {
	p.t.Helper()
	p.Wait("role "+role, fmt.Sprintf(`window.__gomoku && __gomoku.conn === 'open' && __gomoku.role === %q`, role), 15*time.Second)
}

// Play clicks the board at a point like "h8" with a real mouse event.
func (p *Page) Play(point string) {
	p.t.Helper()
	xy := p.pointXY(point)
	p.Do("play "+point, cd.MouseClickXY(xy[0], xy[1]))
}

// pointXY scrolls the game board into view and returns the viewport position of a point
// like "h8" on it.
func (p *Page) pointXY(point string) []float64 {
	p.t.Helper()
	return Eval[[]float64](p, fmt.Sprintf(`(() => {
		const sv = document.querySelector('svg.board'); sv.scrollIntoView({block: 'nearest'});
		const r = sv.getBoundingClientRect(); const n = __gomoku.game.size - 1;
		const pt = %q; const x = pt.charCodeAt(0) - 97, y = Number(pt.slice(1)) - 1;
		return [r.left + r.width * (0.075 + 0.85 * x / n), r.top + r.height * (0.075 + 0.85 * (n - y) / n)];
	})()`, point))
}

// StatusText returns the status line.
func (p *Page) StatusText() string {
	return Eval[string](p, `document.querySelector('#status') ? document.querySelector('#status').textContent : ''`)
}

// RoomPath returns the current /r/{id} path.
func (p *Page) RoomPath() string {
	return Eval[string](p, `location.pathname`)
}

// Freeze stops (or restarts) script execution in the page, so that a screenshot shows the
// state a wait has just seen even when the game moves on meanwhile.
func (p *Page) Freeze(on bool) {
	p.t.Helper()
	act := func(ctx context.Context, t *cd.Target) (cd.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: on})
		return cd.Void{}, err
	}
	if _, err := cd.Run(p.timeout(10*time.Second*TimeScale), act); err != nil {
		p.t.Fatalf("%s: freeze %v: %v", p.name, on, err)
	}
}

// Reload reloads the page.
func (p *Page) Reload() {
	p.t.Helper()
	p.Do("reload", cd.Reload(), cd.WaitVisible(cd.CSS("#main > *:not(.loading)")))
}

// Viewport emulates a device viewport (CSS pixels).
func (p *Page) Viewport(w, h int64) {
	p.t.Helper()
	p.Do("viewport", cd.EmulateViewport(w, h))
}

// PlayAndResign plays h8 and a1 as black against the AI seat (waiting for each answer),
// then resigns and waits for the end of the game.
func (p *Page) PlayAndResign() {
	p.t.Helper()
	p.WaitRole("black")
	p.Play("h8")
	p.WaitMoves(2)
	p.Play("a1")
	p.WaitMoves(4)
	p.Click("#btn-resign")
	p.Click("#btn-resign")
	p.Wait("over", `__gomoku.game.phase === 'over'`, 10*time.Second)
}

// CreateGame opens the create dialog on the lobby and submits it. mode: human | ai | aivai.
// set is JavaScript run on the form `f` (form.elements) before submitting.
func (p *Page) CreateGame(mode, set string) string {
	p.t.Helper()
	p.Open("/")
	p.Click("#nav-new")
	p.Wait("create dialog", `document.querySelector('#create-dialog form') !== null`, 5*time.Second)
	Eval[cd.Void](p, fmt.Sprintf(`(() => { const form = document.querySelector('#create-dialog form'); const f = form.elements;
		f.mode.value = %q; form.dispatchEvent(new Event('change')); %s; })()`, mode, set))
	p.Click("#create-submit")
	p.Wait("game page", `location.pathname.startsWith('/r/') && window.__gomoku && __gomoku.conn === 'open'`, 15*time.Second)
	return p.RoomPath()
}
