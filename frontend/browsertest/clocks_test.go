package browsertest

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// createRoomAPI creates a room through POST /api/rooms from page p (its identity), for
// settings the create form does not offer, and opens it (at once: the creator's seat is
// abandoned if the page does not connect within the grace). It uses the page's own api
// module (the versioned URL app.js was loaded from), so the identity it registers is the
// one the page then connects with.
func createRoomAPI(t *testing.T, p *Page, body map[string]any) string {
	t.Helper()
	p.Open("/")
	js, err := json.Marshal(body)
	require.NoError(t, err)
	id, err := cd.Run(p.timeout(20*time.Second*TimeScale), cd.Evaluate[string](fmt.Sprintf(`import(new URL('api.js', document.querySelector('script[type=module]').src).href).then(async (api) => {
		await api.ensurePlayer(%q); const r = await api.createRoom(%s); history.pushState(null, '', '/r/' + r.room.id);
		dispatchEvent(new PopStateEvent('popstate')); return r.room.id; })`, p.name, js), cd.EvalAwaitPromise))
	require.NoError(t, err)
	p.Wait("room page", `location.pathname.startsWith('/r/') && window.__gomoku && __gomoku.conn === 'open'`, 15*time.Second)
	return id
}

// clockText returns the clock a page shows for colour c.
func clockText(p *Page, c string) string {
	return Eval[string](p, fmt.Sprintf(`document.querySelector('[data-clock=%q]').textContent`, c))
}

// TestFirstMoveAbort: the waiting room shows the configured time; once the game starts no
// clock runs before the first move while a first-move countdown does; nobody moves, the game
// is aborted with no result, said in English and Chinese.
func TestFirstMoveAbort(t *testing.T) {
	e := Setup(t)
	alice := e.NewPage(t, "alice")
	id := createRoomAPI(t, alice, map[string]any{"me": "black", "public": false,
		"time": map[string]any{"base_ms": 60000, "increment_ms": 0}, "first_move_ms": 10000})
	alice.WaitRole("black")
	require.Equal(t, "waiting", Eval[string](alice, `__gomoku.game.phase`), "%s", Eval[string](alice, `JSON.stringify(__gomoku.game.result)`))
	require.Equal(t, "1:00", clockText(alice, "black"), "the waiting room shows the configured time")
	require.Equal(t, "1:00", clockText(alice, "white"))

	bob := e.NewPage(t, "bob")
	bob.Open("/r/" + id)
	bob.Click(`[data-sit="white"]`)
	bob.WaitRole("white")
	alice.Wait("game started", `__gomoku.game.phase === 'playing'`, 10*time.Second)
	alice.Wait("first-move countdown", `(document.querySelector('[data-first-move="black"]') || {}).textContent?.includes('First move within')`, 5*time.Second)
	// Two seconds into black's first-move time its clock has not moved.
	alice.Wait("countdown at 0:07", `/0:0[0-7]/.test(document.querySelector('[data-first-move="black"]').textContent)`, 10*time.Second)
	require.Equal(t, "1:00", clockText(alice, "black"), "black's clock does not run before its first move")
	require.Equal(t, "1:00", clockText(bob, "black"))

	alice.Wait("aborted", `__gomoku.game.phase === 'over'`, 15*time.Second)
	bob.Wait("aborted", `__gomoku.game.phase === 'over'`, 5*time.Second)
	require.Equal(t, "aborted", Eval[string](alice, `__gomoku.game.result.result`))
	require.Contains(t, alice.StatusText(), "Game aborted")
	require.Contains(t, alice.StatusText(), "no first move in time")
	require.NotContains(t, bob.StatusText(), "You win", "no result, not a loss")
	bob.Click("#lang-toggle")
	bob.Wait("zh", `document.documentElement.lang === 'zh-CN'`, 5*time.Second)
	require.Contains(t, bob.StatusText(), "对局已取消")
	require.Contains(t, bob.StatusText(), "未在限时内走出第一步")
	bob.Click("#lang-toggle")
}

// TestTakebackRestoresClock: against the AI a takeback (granted at once) puts both clocks
// back to what they were before the moves taken back: the increment earned is not kept.
func TestTakebackRestoresClock(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "player")
	p.CreateGame("ai", `f.level.value = 'beginner'; f.color.value = 'black'; f.time.value = '10+5'; f.takebacks.checked = true`)
	p.WaitRole("black")
	require.Equal(t, "10:00", clockText(p, "black"), "the full time before moving")
	p.Play("h8")
	p.WaitMoves(2)
	p.Wait("my turn", `document.querySelector('#status').textContent.includes('Your turn')`, 10*time.Second)
	require.Equal(t, 600000, Eval[int](p, `__gomoku.game.clocks.black`), "the first moves are free")
	require.Equal(t, 600000, Eval[int](p, `__gomoku.game.clocks.white`))
	p.Wait("black's clock runs", `/^9:5/.test(document.querySelector('[data-clock="black"]').textContent)`, 10*time.Second)
	p.Play("a1")
	p.WaitMoves(4)
	p.Wait("my turn", `document.querySelector('#status').textContent.includes('Your turn')`, 10*time.Second)
	require.Greater(t, Eval[int](p, `__gomoku.game.clocks.white`), 600000, "the AI's reply earned its 5 s increment")
	require.NotEqual(t, 600000, Eval[int](p, `__gomoku.game.clocks.black`), "black's clock ran")
	// Black's restored clock runs at once and shows 9:58 a second later: record what it
	// shows when the page first draws the restored clocks, not when a later read gets there.
	Eval[cd.Void](p, `(() => { window.__restoredClock = ''; new MutationObserver(() => {
		const c = __gomoku.game.clocks;
		if (!window.__restoredClock && c.black === 600000 && c.white === 600000) window.__restoredClock = document.querySelector('[data-clock="black"]').textContent;
	}).observe(document.body, {subtree: true, childList: true, characterData: true}); })()`)
	p.Click("#btn-takeback")
	p.WaitMoves(2)
	p.Wait("clocks restored", `__gomoku.game.clocks.black === 600000 && __gomoku.game.clocks.white === 600000 && window.__restoredClock`, 5*time.Second)
	require.Contains(t, []string{"10:00", "9:59"}, Eval[string](p, `window.__restoredClock`))
}

// TestPacedAIShow: an AI vs AI exhibition starts from a balanced opening and plays its
// moves at least the room's pace apart (2 s, chosen in the create dialog), so a
// spectator can follow it.
func TestPacedAIShow(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "watcher")
	p.CreateGame("aivai", `f.level_black.value = 'beginner'; f.level_white.value = 'beginner'; f.pace.value = '2000'`)
	p.WaitRole("spectator")
	p.Wait("opening", `__gomoku.game.phase !== 'waiting' && __gomoku.game.moves.length >= 5`, 10*time.Second)
	require.Equal(t, "h8", Eval[string](p, `__gomoku.game.moves[0].point`), "a balanced opening from the centre")
	p.Wait("four AI moves", `__gomoku.moveTimes.length >= 4 || __gomoku.game.phase === 'over'`, 30*time.Second)
	times := Eval[[]float64](p, `__gomoku.moveTimes`) // the server's times of the move events
	require.GreaterOrEqual(t, len(times), 3, "the game went on")
	for i := 1; i < len(times); i++ {
		require.GreaterOrEqual(t, times[i]-times[i-1], 2000.0, "moves %d and %d played %.0f ms apart", i-1, i, times[i]-times[i-1])
	}
}
