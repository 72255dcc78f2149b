package browsertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// humanGame creates a game between two people: alice (black) creates it, bob takes white.
func humanGame(t *testing.T, e *Env, set string) (alice, bob *Page, path string) {
	t.Helper()
	alice = e.NewPage(t, "alice")
	path = alice.CreateGame("human", `f.color.value = 'black'; f.visibility.value = 'private'; f.time.value = '10+5'; `+set)
	alice.WaitRole("black")
	bob = e.NewPage(t, "bob")
	bob.Open(path)
	bob.Click(`[data-sit="white"]`)
	bob.WaitRole("white")
	alice.Wait("game started", `__gomoku.game.phase === 'playing' && __gomoku.game.seats.white !== null`, 10*time.Second)
	return alice, bob, path
}

// playAlternately plays points in order, black first, waiting for each move on both pages.
func playAlternately(t *testing.T, black, white *Page, start int, points ...string) {
	t.Helper()
	for i, pt := range points {
		mover, other := black, white
		if (start+i)%2 == 1 {
			mover, other = white, black
		}
		mover.Wait("my turn", `document.querySelector('#status').textContent.length > 0 && __gomoku.game.moves.length === `+strconv.Itoa(start+i), 10*time.Second)
		mover.Play(pt)
		mover.WaitMoves(start + i + 1)
		other.WaitMoves(start + i + 1)
	}
}

func TestTwoPlayersPlayToFiveAndSpectatorFollows(t *testing.T) {
	e := Setup(t)
	alice, bob, path := humanGame(t, e, "")
	watcher := e.NewPage(t, "watcher")
	watcher.Open(path + "?watch=1")
	watcher.WaitRole("spectator")
	require.Zero(t, Eval[int](watcher, `document.querySelectorAll('[data-sit]').length`), "spectate link shows no seat button")

	playAlternately(t, alice, bob, 0, "h8", "a1", "i8", "a2", "j8", "a3", "k8")
	watcher.WaitMoves(7)
	require.Equal(t, []string{"h8", "a1", "i8", "a2", "j8", "a3", "k8"}, watcher.Moves(), "the spectator saw every move live")
	playAlternately(t, alice, bob, 7, "a4", "l8")

	alice.Wait("win", `__gomoku.game.phase === 'over'`, 10*time.Second)
	bob.Wait("loss", `__gomoku.game.phase === 'over'`, 10*time.Second)
	watcher.Wait("result", `__gomoku.game.phase === 'over'`, 10*time.Second)
	require.Contains(t, alice.StatusText(), "You win")
	require.Contains(t, bob.StatusText(), "You lose")
	require.Contains(t, bob.StatusText(), "five in a row")
	require.Contains(t, watcher.StatusText(), "Black wins")
	require.Equal(t, 5, Eval[int](watcher, `document.querySelectorAll('svg.board .win').length`), "winning five highlighted")
	require.Equal(t, 1, Eval[int](alice, `document.querySelectorAll('#btn-rematch').length`), "rematch offered after the game")
	// replay controls for the finished game
	watcher.Click("#rp-first")
	watcher.Wait("replay at 0", `document.querySelectorAll('svg.board .stones .stone').length === 0`, 5*time.Second)
	watcher.Click("#rp-next")
	watcher.Wait("replay at 1", `document.querySelectorAll('svg.board .stones .stone').length === 1`, 5*time.Second)
	require.Equal(t, 2, Eval[int](watcher, `document.querySelectorAll('#dl-sgf, #dl-psq').length`), "record downloads")

	// rematch: offered by the loser, accepted by the winner, colours swapped
	bob.Click("#btn-rematch")
	alice.Wait("rematch offer", `document.querySelector('#offer-rematch') !== null`, 10*time.Second)
	alice.Click(`#offer-rematch [data-answer="accept"]`)
	alice.WaitRole("white")
	bob.WaitRole("black")
	bob.Wait("new game", `__gomoku.game.phase === 'playing' && __gomoku.game.moves.length === 0`, 10*time.Second)
	require.Contains(t, bob.StatusText(), "Your turn")
}

func TestReloadKeepsTheSeat(t *testing.T) {
	e := Setup(t)
	alice, bob, _ := humanGame(t, e, "")
	playAlternately(t, alice, bob, 0, "h8", "h9")
	alice.Reload()
	alice.WaitRole("black")
	alice.WaitMoves(2)
	require.Contains(t, alice.StatusText(), "Your turn")
	playAlternately(t, alice, bob, 2, "i9", "g7")
	require.Equal(t, []string{"h8", "h9", "i9", "g7"}, alice.Moves())
}

func TestTakebackAccepted(t *testing.T) {
	e := Setup(t)
	alice, bob, _ := humanGame(t, e, "f.takebacks.checked = true")
	playAlternately(t, alice, bob, 0, "h8", "h9", "i9")
	bob.Wait("white to move", `__gomoku.game.moves.length === 3`, 5*time.Second)
	alice.Click("#btn-takeback")
	bob.Wait("takeback offer", `document.querySelector('#offer-takeback') !== null`, 10*time.Second)
	bob.Click(`#offer-takeback [data-answer="accept"]`)
	alice.WaitMoves(2)
	bob.WaitMoves(2)
	require.Contains(t, alice.StatusText(), "Your turn")
}

func TestAIGameShowsThinkingAndReplies(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "player")
	p.CreateGame("ai", `f.level.value = 'master'; f.color.value = 'black'; f.time.value = '10+5'`)
	p.WaitRole("black")
	// The bar and the status line must be seen together while the AI thinks; a fast reply
	// can beat a poll, so a MutationObserver records it.
	Eval[cd.Void](p, `(() => { window.__sawThinking = false; new MutationObserver(() => {
		if (document.querySelector('#ai-panel #ai-progress') && document.querySelector('#status').textContent.includes('AI is thinking')) window.__sawThinking = true;
	}).observe(document.body, {subtree: true, childList: true, characterData: true}); })()`)
	p.Play("h8")
	p.WaitMoves(2)
	p.Wait("thinking bar seen", `window.__sawThinking === true && __gomoku.aiMessages > 0`, 5*time.Second)
	p.Wait("my turn again", `document.querySelector('#status').textContent.includes('Your turn')`, 5*time.Second)
	require.Equal(t, 1, Eval[int](p, `document.querySelectorAll('#btn-hint').length`), "hint button in AI games")
	p.Click("#btn-hint")
	p.Wait("hint on the board", `document.querySelector('svg.board .hint') !== null`, 20*time.Second)
}

func TestLanguageSwitch(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "user")
	p.Open("/")
	require.Equal(t, "Live games", Eval[string](p, `document.querySelector('#h-live span').textContent`))
	p.Click("#lang-toggle")
	require.Equal(t, "zh-CN", Eval[string](p, `document.documentElement.lang`))
	require.Equal(t, "正在进行", Eval[string](p, `document.querySelector('#h-live span').textContent`))
	p.Reload()
	require.Equal(t, "正在进行", Eval[string](p, `document.querySelector('#h-live span').textContent`), "choice survives a reload")
	p.Click("#lang-toggle")
	require.Equal(t, "Live games", Eval[string](p, `document.querySelector('#h-live span').textContent`))
}

func TestPhoneLayout(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "phone")
	p.Viewport(360, 740)
	path := p.CreateGame("ai", `f.level.value = 'beginner'; f.color.value = 'black'`)
	require.True(t, strings.HasPrefix(path, "/r/"))
	p.WaitRole("black")
	overflow := Eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`)
	require.LessOrEqual(t, overflow, 0, "no horizontal scrolling at 360 px")
	w := Eval[float64](p, `document.querySelector('svg.board').getBoundingClientRect().width`)
	require.Greater(t, w, 300.0, "the board uses the phone's width")
	require.LessOrEqual(t, w, 360.0)
	p.Play("h8")
	p.WaitMoves(2)
	p.Open("/")
	id := strings.TrimPrefix(path, "/r/")
	p.Wait("the lobby lists the live game", fmt.Sprintf(`document.querySelector('#h-live').closest('section').querySelector('a.room[data-room=%q]') !== null`, id), 15*time.Second)
	entry := Eval[string](p, fmt.Sprintf(`document.querySelector('a.room[data-room=%q]').textContent`, id))
	require.Contains(t, entry, "AI · Beginner", "the machine seat from the room summary")
	require.Contains(t, entry, "Freestyle")
	require.LessOrEqual(t, Eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`), 0, "lobby fits too")
}

func TestReconnectResumesAndResendsPendingMove(t *testing.T) {
	e := Setup(t)
	alice, bob, _ := humanGame(t, e, "")
	playAlternately(t, alice, bob, 0, "h8", "h9")
	// Record the "Reconnecting…" banner even if it shows only briefly.
	Eval[cd.Void](alice, `(() => { window.__sawBanner = false; new MutationObserver(() => {
		const b = document.getElementById('conn-banner'); if (!b.hidden && b.textContent.includes('Reconnecting')) window.__sawBanner = true;
	}).observe(document.getElementById('conn-banner'), {attributes: true, childList: true, characterData: true, subtree: true}); })()`)
	// The stone shows as pending until the reconnection (a quarter to half a second after
	// the drop) resends it and the server acknowledges it: record that it showed rather than
	// count it after the click. The point is found before the drop, so the click lands while
	// the page is offline.
	Eval[cd.Void](alice, `(() => { window.__sawPending = false; new MutationObserver(() => {
		if (document.querySelector('svg.board .pending')) window.__sawPending = true;
	}).observe(document.body, {subtree: true, childList: true, attributes: true}); })()`)
	xy := alice.pointXY("i9")
	alice.Do("drop, then play i9", cd.Evaluate[cd.Void](`__gomoku.drop()`), cd.MouseClickXY(xy[0], xy[1])) // sent while offline, resent after the reconnect
	alice.Wait("the move shown as pending", `window.__sawPending`, 5*time.Second)
	alice.Wait("reconnected", `__gomoku.conn === 'open' && window.__sawBanner`, 15*time.Second)
	alice.WaitMoves(3)
	bob.WaitMoves(3)
	require.Equal(t, "i9", bob.Moves()[2])
	alice.Wait("pending cleared", `document.querySelectorAll('svg.board .pending').length === 0`, 5*time.Second)
	// A move made while alice is away reaches her through last_seq.
	Eval[cd.Void](alice, `__gomoku.drop()`)
	bob.Play("g7")
	bob.WaitMoves(4)
	alice.WaitMoves(4)
	require.Equal(t, []string{"h8", "h9", "i9", "g7"}, alice.Moves())
	require.True(t, Eval[bool](alice, `document.getElementById('conn-banner').hidden`))
}

func TestChatDrawOfferAndKeyboardPlay(t *testing.T) {
	e := Setup(t)
	alice, bob, _ := humanGame(t, e, "")
	// keyboard: focus the board, the cursor starts at the centre (h8), Enter plays
	Eval[cd.Void](alice, `document.querySelector('svg.board').focus()`)
	alice.Do("keys", cd.KeyEvent("\r"))
	alice.WaitMoves(1)
	require.Equal(t, "h8", alice.Moves()[0])
	bob.WaitMoves(1) // before bob's page has black's move, Enter is not bob's turn and is ignored
	Eval[cd.Void](bob, `document.querySelector('svg.board').focus()`)
	bob.Do("keys", cd.KeyEvent(kb.ArrowUp), cd.KeyEvent(kb.ArrowRight), cd.KeyEvent("\r"))
	bob.WaitMoves(2)
	require.Equal(t, "i9", bob.Moves()[1])
	// chat
	alice.Click("#tab-chat")
	alice.Do("type", cd.SendKeys(cd.CSS("#chat-input"), "你好 gg\r"))
	bob.Click("#tab-chat")
	bob.Wait("chat", `document.querySelector('#chat-log') && document.querySelector('#chat-log').textContent.includes('你好 gg')`, 10*time.Second)
	// draw offer, declined then accepted
	alice.Click("#btn-draw")
	bob.Wait("draw offer", `document.querySelector('#offer-draw') !== null`, 10*time.Second)
	bob.Click(`#offer-draw [data-answer="decline"]`)
	// The decline event itself: "no offer" is also true on alice's page before her own
	// offer's event reaches it, and a second offer made then can cross bob's decline and
	// be refused.
	alice.Wait("declined", `__gomoku.trace.some((m) => m.startsWith('event:draw_declined')) && __gomoku.game.offers.draw === null`, 10*time.Second)
	alice.Click("#btn-draw")
	bob.Wait("draw offer again", `document.querySelector('#offer-draw') !== null`, 10*time.Second)
	bob.Click(`#offer-draw [data-answer="accept"]`)
	alice.Wait("draw", `__gomoku.game.phase === 'over'`, 10*time.Second)
	require.Contains(t, alice.StatusText(), "Draw")
	require.Contains(t, bob.StatusText(), "by agreement")
}

func TestAbandonmentCountdownAndClaim(t *testing.T) {
	e := Setup(t)
	alice, bob, _ := humanGame(t, e, "")
	playAlternately(t, alice, bob, 0, "h8", "h9")
	bob.Close()
	alice.Wait("opponent offline", `document.querySelector('[data-color="white"] .conn-dot.off') !== null`, 10*time.Second)
	// The countdown or the claim button shows; the server may also end the game by itself.
	alice.Wait("claimable", `__gomoku.game.phase === 'over' || (document.querySelector('#claim-btn') && !document.querySelector('#claim-btn').disabled)`, 20*time.Second)
	if Eval[bool](alice, `__gomoku.game.phase !== 'over'`) {
		alice.Click("#claim-btn")
	}
	alice.Wait("won", `__gomoku.game.phase === 'over'`, 10*time.Second)
	require.Contains(t, alice.StatusText(), "You win")
}

func TestRenjuForbiddenPointsFromTheServer(t *testing.T) {
	e := Setup(t)
	alice, bob, path := humanGame(t, e, "f.rule.value = 'renju'")
	watcher := e.NewPage(t, "watcher")
	watcher.Open(path + "?watch=1")
	watcher.WaitRole("spectator")
	// Black to move with g8 h8 / i9 i10: i8 makes two open threes.
	playAlternately(t, alice, bob, 0, "g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7")
	const marks = `document.querySelectorAll('svg.board .forbidden').length`
	alice.Wait("forbidden mark", marks+` === 1`, 10*time.Second)
	watcher.Wait("forbidden mark for spectators", marks+` === 1`, 10*time.Second)
	require.Equal(t, 0, Eval[int](bob, marks), "white is not bound by renju's forbidden points")
	require.Equal(t, "i8", Eval[string](alice, `__gomoku.game.forbidden.map(f => f.point).join(',')`))
	require.Contains(t, Eval[string](alice, `document.querySelector('svg.board .forbidden title').textContent`), "double three")
	// Clicking it is refused by the page with the reason; no move is sent.
	alice.Play("i8")
	alice.Wait("refusal toast", `[...document.querySelectorAll('.toast')].some(el => el.textContent.includes('double three'))`, 5*time.Second)
	require.Equal(t, 8, len(alice.Moves()))
	require.Zero(t, Eval[int](alice, `document.querySelectorAll('svg.board .pending').length`))
	// After a legal move white is to move: the marks go.
	alice.Play("o15")
	alice.WaitMoves(9)
	alice.Wait("marks gone", marks+` === 0`, 5*time.Second)
}
