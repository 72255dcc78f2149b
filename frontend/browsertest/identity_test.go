package browsertest

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// storedPlayer is the identity a page keeps in localStorage.
type storedPlayer struct {
	ID, Name, Token string
}

func (p *Page) storedPlayer() storedPlayer {
	p.t.Helper()
	return Eval[storedPlayer](p, `(JSON.parse(localStorage.getItem('gomoku.v1') || '{}').player || {})`)
}

// setName types a name into the top bar and leaves the field (a change event).
func (p *Page) setName(name string) {
	p.t.Helper()
	Eval[bool](p, `(() => { const el = document.querySelector('#player-name'); el.value = `+jsString(name)+`;
		el.dispatchEvent(new Event('change')); return true; })()`)
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// TestCSPViolationsAreReported: the harness sees a policy violation (here a style
// attribute set from the page), so the other tests prove that the app runs under the
// server's Content-Security-Policy without any.
func TestCSPViolationsAreReported(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "csp")
	p.Open("/")
	Eval[bool](p, `(document.querySelector('main').setAttribute('style', 'color: red'), true)`)
	var seen []string
	deadline := time.Now().Add(10 * time.Second * TimeScale)
	for time.Now().Before(deadline) {
		seen = append(seen, p.TakeCSPViolations()...)
		joined := strings.Join(seen, "\n")
		if strings.Contains(joined, "style-src-attr blocked") && strings.Contains(joined, "console:") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	joined := strings.Join(seen, "\n")
	require.Contains(t, joined, "style-src-attr blocked inline", "the securitypolicyviolation event is reported")
	require.Contains(t, joined, "console: ", "the console message is reported")
	require.Equal(t, "", Eval[string](p, `getComputedStyle(document.querySelector('main')).color === 'rgb(255, 0, 0)' ? 'applied' : ''`),
		"the policy refused the style")
}

// TestNotFoundPages: an unknown page (a deep path under a page's included) and an
// unknown game each say so, in the page and in the document title, with a way back to
// the lobby.
func TestNotFoundPages(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "visitor")
	p.Open("/nope")
	p.Wait("page not found", `document.querySelector('#fatal') && document.querySelector('#fatal').textContent === 'Page not found'`, 10*time.Second)
	require.Equal(t, "Page not found · Gomoku Arena", Eval[string](p, `document.title`))
	p.Click("#fatal-lobby")
	p.Wait("lobby", `location.pathname === '/' && document.querySelector('#quick-ai') !== null`, 10*time.Second)
	p.Open("/puzzles/vcf-001/more")
	p.Wait("a deep path is no page", `document.querySelector('#fatal') && document.querySelector('#fatal').textContent === 'Page not found'`, 10*time.Second)

	p.Open("/r/nosuchroom")
	p.Wait("game not found", `document.querySelector('#fatal') && document.querySelector('#fatal').textContent === 'This game no longer exists'`, 10*time.Second)
	require.Equal(t, "This game no longer exists · Gomoku Arena", Eval[string](p, `document.title`))
	require.Equal(t, "closed", Eval[string](p, `__gomoku.conn`), "no reconnection loop")
	require.Equal(t, 1, Eval[int](p, `document.querySelectorAll('#main a[href="/"]').length`), "a way back")
}

// TestRestartWithEmbeddedStore: gomokud (embedded store) stops in the middle of a game.
// While it is down the pages say what the connection is doing, stop the clocks, show the
// opponent's connection as unknown and mark a stone not yet acknowledged. When it is back
// every identity is forgotten and the room is gone: the open pages register again under
// the same name and say that the game no longer exists; a page opened afterwards does the
// same at start; everyone can play again.
func TestRestartWithEmbeddedStore(t *testing.T) {
	e := Setup(t)
	carol := e.NewPage(t, "carol")
	carol.CreateGame("ai", `f.color.value = 'black'`)
	carolBefore := carol.storedPlayer()
	carol.Open("/")

	alice, bob, _ := humanGame(t, e, "")
	aliceBefore, bobBefore := alice.storedPlayer(), bob.storedPlayer()
	playAlternately(t, alice, bob, 0, "h8")

	e.StopServer()
	for _, p := range []*Page{alice, bob} {
		p.Wait("reconnect banner", `/Connection lost\. Reconnecting \(attempt \d+\) in \d+ s|Reconnecting… \(attempt \d+\)/.test((document.querySelector('#conn-text') || {}).textContent || '')`, 20*time.Second)
		p.Wait("paused clocks", `document.querySelectorAll('.pcard .clock.paused').length === 2`, 10*time.Second)
	}
	require.Equal(t, "Unknown", Eval[string](alice, `document.querySelector('[data-presence="white"]').textContent.trim()`), "the opponent's connection")
	require.Equal(t, "Disconnected", Eval[string](alice, `document.querySelector('[data-presence="black"]').textContent.trim()`), "one's own")
	// Bob moves while cut off: the stone waits, marked as not sent.
	bob.Play("i9")
	bob.Wait("unsent stone", `document.querySelectorAll('svg.board .pending.unsent').length === 1`, 10*time.Second)
	// The clocks stand: bob's (running when the connection was lost) still shows the same
	// time after the banner has counted down.
	clock := Eval[string](bob, `document.querySelector('[data-clock="white"]').textContent`)
	banner := Eval[string](bob, `document.querySelector('#conn-text').textContent`)
	bob.Wait("banner moves on", `document.querySelector('#conn-text').textContent !== `+jsString(banner), 20*time.Second)
	require.Equal(t, clock, Eval[string](bob, `document.querySelector('[data-clock="white"]').textContent`), "the clock is paused")

	// The renewal's toast shows for 10 s; alice's is read after bob's page has come back too.
	alice.watchToasts()
	bob.watchToasts()
	e.StartServerAgain()
	for _, p := range []*Page{alice, bob} {
		// Retry now rather than wait for the next attempt (if one is not already under way).
		Eval[bool](p, `(document.querySelector("#conn-retry") || {click() {}}).click() || true`)
		p.Wait("game gone", `document.querySelector('#fatal') && document.querySelector('#fatal').textContent === 'This game no longer exists'`, 30*time.Second)
		require.Equal(t, "This game no longer exists · Gomoku Arena", Eval[string](p, `document.title`))
		p.Wait("banner gone", `document.querySelector('#conn-banner').hidden`, 5*time.Second)
	}
	for _, c := range []struct {
		p      *Page
		before storedPlayer
	}{{alice, aliceBefore}, {bob, bobBefore}} {
		after := c.p.storedPlayer()
		require.Equal(t, c.before.Name, after.Name, "registered again under the same name")
		require.NotEqual(t, c.before.Token, after.Token)
		require.NotEqual(t, c.before.ID, after.ID)
		require.True(t, Eval[bool](c.p, `__toastLog.some((s) => s.includes(`+jsString("registered again as "+c.before.Name)+`))`), "the renewal is told")
	}

	// A page opened after the restart checks its identity at start.
	carol.Open("/")
	carol.Wait("renewed", `document.querySelector('#toasts').textContent.includes('registered again as ')`, 10*time.Second)
	carolAfter := carol.storedPlayer()
	require.Equal(t, carolBefore.Name, carolAfter.Name)
	require.NotEqual(t, carolBefore.ID, carolAfter.ID)
	require.Equal(t, carolBefore.Name, Eval[string](carol, `document.querySelector('#player-name').value`))

	// Everyone plays on with the new identities.
	alice.Click("#fatal-lobby")
	alice.Wait("lobby", `location.pathname === '/'`, 10*time.Second)
	alice.CreateGame("ai", `f.color.value = 'black'`)
	alice.WaitRole("black")
	require.Equal(t, aliceBefore.Name, Eval[string](alice, `__gomoku.game.seats.black.name`))
	require.Equal(t, alice.storedPlayer().ID, Eval[string](alice, `__gomoku.game.seats.black.player_id`))
}

// TestRename: a name typed in the top bar renames the player: it is kept over a reload and
// names the seats taken afterwards (a seat already taken keeps its name); a bad name is
// refused and the current one comes back.
func TestRename(t *testing.T) {
	e := Setup(t)
	alice := e.NewPage(t, "alice")
	alice.CreateGame("human", `f.color.value = 'black'; f.visibility.value = 'private'`)
	alice.WaitRole("black")
	oldName := alice.storedPlayer().Name
	id := alice.storedPlayer().ID

	alice.setName("  Alice   Liddell ")
	alice.Wait("renamed", `document.querySelector('#toasts').textContent.includes('You are now Alice Liddell')`, 10*time.Second)
	require.Equal(t, "Alice Liddell", Eval[string](alice, `document.querySelector('#player-name').value`), "as the server cleaned it")
	require.Equal(t, storedPlayer{ID: id, Name: "Alice Liddell", Token: alice.storedPlayer().Token}, alice.storedPlayer())
	require.Equal(t, oldName, Eval[string](alice, `__gomoku.game.seats.black.name`), "the seat taken before keeps its name")

	alice.Reload()
	require.Equal(t, "Alice Liddell", Eval[string](alice, `document.querySelector('#player-name').value`), "the top bar keeps the new name")

	alice.CreateGame("human", `f.color.value = 'white'; f.visibility.value = 'private'`)
	alice.WaitRole("white")
	require.Equal(t, "Alice Liddell", Eval[string](alice, `__gomoku.game.seats.white.name`), "a new seat has the new name")
	require.Contains(t, Eval[string](alice, `document.querySelector('.pcard[data-color="white"] .pname').textContent`), "Alice Liddell")
	require.Equal(t, "/@/id/"+id, Eval[string](alice, `document.querySelector('.pcard[data-color="white"] .pname a').getAttribute('href')`), "a person's name links to the player's page")

	// A player renamed while watching a game (one connection, opened under the old name)
	// takes a seat under the new name.
	invite := alice.RoomPath()
	bob := e.NewPage(t, "bob")
	bob.CreateGame("ai", `f.color.value = 'black'`) // registers bob
	bob.Open(invite)
	bob.Wait("watching", `window.__gomoku && __gomoku.conn === 'open' && document.querySelector('[data-sit="black"]') !== null`, 15*time.Second)
	bob.setName("Bob Builder")
	bob.Wait("renamed", `document.querySelector('#toasts').textContent.includes('You are now Bob Builder')`, 10*time.Second)
	bob.Click(`[data-sit="black"]`)
	bob.WaitRole("black")
	require.Equal(t, "Bob Builder", Eval[string](bob, `__gomoku.game.seats.black.name`))
	alice.Wait("opponent's name", `__gomoku.game.seats.black && __gomoku.game.seats.black.name === 'Bob Builder'`, 10*time.Second)

	alice.setName("   ")
	alice.Wait("refused", `document.querySelector('#toasts').textContent.includes('A name is 1 to 24 printable characters')`, 10*time.Second)
	require.Equal(t, "Alice Liddell", Eval[string](alice, `document.querySelector('#player-name').value`))
	require.Equal(t, "Alice Liddell", alice.storedPlayer().Name)
}
