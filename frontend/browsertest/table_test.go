package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

func TestForbiddenClickWithMarksHiddenGivesOneClearToast(t *testing.T) {
	e := Setup(t)
	alice, bob, _ := humanGame(t, e, "f.rule.value = 'renju'")
	playAlternately(t, alice, bob, 0, "g8", "a1", "h8", "a3", "i9", "a5", "i10", "a7")
	alice.Wait("forbidden mark", `document.querySelectorAll('svg.board .forbidden').length === 1`, 10*time.Second)
	alice.Click("#opt-forbidden") // hide the marks: the click goes to the server, which refuses it
	alice.Wait("marks hidden", `document.querySelectorAll('svg.board .forbidden').length === 0`, 5*time.Second)
	alice.Play("i8")
	// The refusal is handled synchronously with the error frame: once the trace has it,
	// every toast it causes is on the page.
	alice.Wait("refusal", `__gomoku.trace.some(m => m === 'error:forbidden')`, 10*time.Second)
	toasts := Eval[[]string](alice, `[...document.querySelectorAll('.toast')].map(el => el.textContent)`)
	require.Len(t, toasts, 1, "one toast: %q", toasts)
	require.Equal(t, "Forbidden point for black (double three).", toasts[0])
	require.Equal(t, 8, len(alice.Moves()))
}

func TestLobbyJoinSitsInOneTap(t *testing.T) {
	e := Setup(t)
	alice := e.NewPage(t, "alice")
	path := alice.CreateGame("human", `f.color.value = 'black'; f.visibility.value = 'public'`)
	alice.WaitRole("black")
	id := strings.TrimPrefix(path, "/r/")
	bob := e.NewPage(t, "bob")
	bob.Open("/")
	bob.Click(fmt.Sprintf(`section[aria-labelledby="h-open"] a.room[data-room=%q]`, id))
	bob.WaitRole("white")
	alice.Wait("game started", `__gomoku.game.phase === 'playing' && __gomoku.game.seats.white !== null`, 10*time.Second)
	require.Equal(t, path, bob.RoomPath(), "the join parameter is gone from the address")
}

func TestReplayOnAPhoneFitsAndFollowsTheKeys(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "phone")
	p.Viewport(360, 640)
	p.CreateGame("ai", `f.level.value = 'beginner'; f.color.value = 'black'`)
	p.PlayAndResign()
	Eval[cd.Void](p, `(document.activeElement && document.activeElement.blur(), window.scrollTo(0, 0))`)
	p.Wait("replay controls", `document.querySelector('#rp-prev') !== null`, 5*time.Second)
	for _, vp := range [][2]int64{{360, 640}, {740, 360}} { // a phone upright and on its side
		p.Viewport(vp[0], vp[1])
		Eval[cd.Void](p, `window.scrollTo(0, 0)`)
		box := Eval[[]float64](p, `(() => { const r = document.querySelector('#replay .replay').getBoundingClientRect(); return [r.top, r.bottom]; })()`)
		require.GreaterOrEqual(t, box[0], 0.0, "viewport %v", vp)
		require.LessOrEqual(t, box[1], float64(vp[1]), "viewport %v: the replay controls show without scrolling", vp)
	}
	const stones = `document.querySelectorAll('svg.board .stones .stone').length`
	p.Do("left", cd.KeyEvent(kb.ArrowLeft))
	p.Wait("one back", stones+` === 3`, 5*time.Second)
	p.Do("home", cd.KeyEvent(kb.Home))
	p.Wait("start", stones+` === 0`, 5*time.Second)
	p.Do("right", cd.KeyEvent(kb.ArrowRight))
	p.Wait("one on", stones+` === 1`, 5*time.Second)
	p.Do("end", cd.KeyEvent(kb.End))
	p.Wait("end", stones+` === 4`, 5*time.Second)
}

func TestAIVariationIsOffForThePlayerAndOnForSpectators(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "player")
	path := p.CreateGame("ai", `f.level.value = 'master'; f.color.value = 'black'; f.time.value = '10+5'`)
	p.WaitRole("black")
	watcher := e.NewPage(t, "watcher")
	watcher.Open(path + "?watch=1")
	watcher.WaitRole("spectator")
	// Both record whether the AI's line was ever drawn while it thought.
	const record = `(() => { window.__sawPV = false; new MutationObserver(() => {
		if (document.querySelector('svg.board .pv') || document.querySelector('#ai-panel .pv-line')) window.__sawPV = true;
	}).observe(document.body, {subtree: true, childList: true}); })()`
	Eval[cd.Void](p, record)
	Eval[cd.Void](watcher, record)
	p.Play("h8")
	watcher.Wait("the spectator sees the AI's line", `window.__sawPV === true`, 20*time.Second)
	p.WaitMoves(2)
	require.False(t, Eval[bool](p, `window.__sawPV`), "the player facing the AI sees no line by default")
	require.Equal(t, 0, Eval[int](watcher, `document.querySelectorAll('#ai-pv').length`), "no switch for spectators")
	// The switch turns it on and is remembered.
	// A point the AI's reply did not take (its reply depends on the engine's version).
	p.Play(Eval[string](p, `['j9', 'g7', 'g9', 'j7'].find((pt) => !__gomoku.game.moves.some((m) => m.point === pt))`))
	p.Click("#ai-pv") // the switch shows while the AI thinks
	p.Wait("the player's line", `window.__sawPV === true`, 20*time.Second)
	require.True(t, Eval[bool](p, `JSON.parse(localStorage.getItem('gomoku.v1')).pvVsAI === true`))
}
