package browsertest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestScreenshots makes the README pictures: the lobby, a game against the AI with its
// thinking shown, a spectated AI vs AI game, the puzzle trainer and the phone layout. It
// runs only with GOMOKU_SCREENSHOTS=<dir> (and GOMOKU_BROWSER=1):
//
//	GOMOKU_BROWSER=1 GOMOKU_SCREENSHOTS=$PWD/docs/img go test -run Screenshots ./frontend/browsertest/
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("GOMOKU_SCREENSHOTS")
	if dir == "" {
		t.Skip("set GOMOKU_SCREENSHOTS=<dir> (with GOMOKU_BROWSER=1) to write the README screenshots")
	}
	e := Setup(t)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	shot := func(p *Page, name string) {
		start := time.Now()
		p.Freeze(true)
		require.NotEmpty(t, p.SaveScreenshot(filepath.Join(dir, name)))
		p.Freeze(false)
		t.Logf("%s in %v", name, time.Since(start))
	}

	// A game against the AI, played until the AI thinks for a while.
	player := e.NewPage(t, "player")
	player.Viewport(1280, 860)
	player.Open("/")
	Eval[cd.Void](player, `(() => { const i = document.getElementById('player-name'); i.value = 'Alice'; i.dispatchEvent(new Event('change')); })()`)
	// The player has turned on the AI's line (off by default against the AI); CreateGame reloads the page.
	Eval[cd.Void](player, `(() => { const d = JSON.parse(localStorage.getItem('gomoku.v1') || '{}'); d.pvVsAI = true; localStorage.setItem('gomoku.v1', JSON.stringify(d)); })()`)
	player.CreateGame("ai", `f.level.value = 'master'; f.color.value = 'black'; f.rule.value = 'freestyle'; f.time.value = '10+5'`)
	player.WaitRole("black")
	// Play until a screenshot catches the AI mid-search with a principal variation.
	caught := false
	for i := 0; i < 8 && !caught; i++ {
		player.Wait("my turn", `__gomoku.game.moves.length === `+strconv.Itoa(2*i)+` && !document.querySelector('.board .pending')`, 30*time.Second)
		pt := Eval[string](player, `(() => { const used = new Set(__gomoku.game.moves.map(m => m.point));
			for (const p of ['h8','g9','j10','i7','g7','i9','j7','f9','k8','e8','h10','k10']) if (!used.has(p)) return p; return 'a1'; })()`)
		player.Play(pt)
		_, err := cd.Run(player.timeout(15*time.Second), cd.Poll[cd.Void](`(document.querySelector('#ai-panel .pv-line') !== null && document.querySelector('#ai-progress') !== null && parseFloat(document.querySelector('#ai-progress').style.width) > 15) || __gomoku.game.moves.length === `+strconv.Itoa(2*i+2),
			cd.WithPollingTimeout(14*time.Second), cd.WithPollingInterval(30*time.Millisecond)))
		require.NoError(t, err)
		caught = Eval[bool](player, `document.querySelector('#ai-panel .pv-line') !== null && __gomoku.game.moves.length === `+strconv.Itoa(2*i+1))
	}
	require.True(t, caught, "the AI panel was caught thinking")
	shot(player, "ai-game.png")

	// A finished game for the lobby: a quick beginner exhibition.
	quick := e.NewPage(t, "quick")
	quick.CreateGame("aivai", `f.level_black.value = 'beginner'; f.level_white.value = 'beginner'; f.time.value = 'none'`)
	quick.Close()

	// The exhibition to spectate: its creator watches it (me: none), from the first move.
	host := e.NewPage(t, "host")
	host.Viewport(1280, 860)
	exhibition := host.CreateGame("aivai", `f.level_black.value = 'master'; f.level_white.value = 'master'; f.rule.value = 'renju'; f.time.value = '10+5'`)
	host.WaitRole("spectator")
	t.Logf("exhibition created: %d moves", Eval[int](host, `__gomoku.game.moves.length`))
	host.Wait("some moves", `(__gomoku.game.moves.length >= 9 && __gomoku.game.moves.length % 2 === 1 && document.querySelector('#ai-panel .pv-line') !== null) || __gomoku.game.phase === 'over'`, 90*time.Second)
	shot(host, "spectate.png")

	// Another live exhibition for the lobby.
	more := e.NewPage(t, "more")
	more.CreateGame("aivai", `f.level_black.value = 'expert'; f.level_white.value = 'master'; f.size.value = '19'; f.time.value = '15+10'`)
	more.Close()

	// An open game waiting for an opponent.
	carol := e.NewPage(t, "carol")
	carol.Open("/")
	Eval[cd.Void](carol, `(() => { const i = document.getElementById('player-name'); i.value = 'Carol'; i.dispatchEvent(new Event('change')); })()`)
	carol.CreateGame("human", `f.color.value = 'black'; f.visibility.value = 'public'; f.rule.value = 'standard'; f.time.value = '10+5'`)

	// Lobby.
	lobby := e.NewPage(t, "lobby")
	lobby.Viewport(1280, 860)
	lobby.Open("/")
	lobby.Wait("lists", `document.querySelectorAll('.room').length >= 5`, 20*time.Second)
	time.Sleep(300 * time.Millisecond)
	shot(lobby, "lobby.png")
	lobby.Close()
	host.Close()

	// The puzzle trainer after the first correct move: the server's reply on the board.
	solver := e.NewPage(t, "solver")
	solver.Viewport(1280, 860)
	solver.Open("/puzzles/vcf-001")
	solver.Wait("puzzle", `window.__puzzle && __puzzle.state() && __puzzle.state().phase === 'ready'`, 15*time.Second)
	clickPoint(solver, winningMove(t, "vcf-001", nil), 15)
	solver.Wait("reply", `__puzzle.state().phase === 'ready' && __puzzle.state().line.length === 2`, 30*time.Second)
	shot(solver, "puzzles.png")
	solver.Close()

	// Phone layout, in Chinese.
	phone := e.NewPage(t, "phone")
	phone.Viewport(390, 844)
	phone.Open(exhibition + "?watch=1")
	phone.Click("#lang-toggle")
	phone.WaitRole("spectator")
	phone.Wait("some moves", `__gomoku.game.moves.length >= 10`, 60*time.Second)
	shot(phone, "phone-zh.png")
}
