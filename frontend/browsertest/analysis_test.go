package browsertest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAnalyseAFinishedGame: a game against the AI (the New game dialog's "analyse when
// it ends" on, the default) ends (resigned) and its player leaves at once; the server
// analyses it by itself, and a viewer who opens the game later sees the evaluation graph
// over every position; a click on the graph shows that position with the engine's best
// move, whose line is drawn on the board on request; the game's replay page shows it too.
// With the box unticked the finished game offers the button instead, which starts the
// analysis.
func TestAnalyseAFinishedGame(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "analysis")
	path := p.CreateGame("ai", `f.level.value = 'beginner'; f.color.value = 'black'`)
	require.True(t, Eval[bool](p, `document.querySelector('#create-dialog form').elements.auto_analysis.checked`), "on by default")
	p.PlayAndResign()
	p.Open("/") // the player leaves: nothing on the page asks for the analysis

	q := e.NewPage(t, "viewer")
	q.Open(path + "?watch")
	q.Wait("analysed", `document.querySelector('#analysis-sgf') !== null`, 3*time.Minute)
	// One point per position (4 moves: 5 positions) on the graph's line.
	require.Equal(t, 5, Eval[int](q, `document.querySelector('#analysis-graph .eval-line').getAttribute('d').split(/[ML]/).filter(Boolean).length`))
	require.Contains(t, Eval[string](q, `document.querySelector('#analysis-sgf').getAttribute('href')`), "/analysis?game=1&format=sgf")
	require.Zero(t, Eval[int](q, `document.querySelectorAll('#analysis-start').length`), "nothing to ask for")

	// A click at the graph's left edge shows the empty board and the engine's first move.
	Eval[any](q, `(() => { const g = document.querySelector('#analysis-graph'); const r = g.getBoundingClientRect();
		g.dispatchEvent(new MouseEvent('click', { clientX: r.left + 1, clientY: r.top + r.height / 2, bubbles: true })); })()`)
	q.Wait("first position", `document.querySelectorAll('svg.board .stones .stone').length === 0`, 5*time.Second)
	q.Wait("best move hinted", `document.querySelector('svg.board .marks circle.hint') !== null`, 5*time.Second)
	require.Contains(t, Eval[string](q, `document.querySelector('#analysis-here').textContent`), "h8")
	q.Click("#analysis-line")
	q.Wait("line on the board", `document.querySelectorAll('svg.board .marks .pv').length > 0`, 5*time.Second)

	// The replay page of the game shows the same analysis, its best move on the board.
	q.Open(path + "?game=1")
	q.Wait("replay page analysed", `document.querySelector('#archive #analysis-graph') !== null && document.querySelector('#archive #analysis-sgf') !== null`, 30*time.Second)
	q.Click("#archive #rp-first")
	q.Wait("a position's best move", `document.querySelector('#archive svg.board .marks circle.hint') !== null`, 5*time.Second)

	// Unticked (the box remembers the choice): the button, which starts it.
	p.CreateGame("ai", `f.level.value = 'beginner'; f.color.value = 'black'; f.auto_analysis.checked = false`)
	p.PlayAndResign()
	p.Wait("the button", `document.querySelector('#analysis-start:not([disabled])') !== null`, 30*time.Second)
	p.Click("#analysis-start")
	p.Wait("analysing", `document.querySelector('#analysis-progress, #analysis-sgf') !== null`, 30*time.Second)
	p.Wait("analysed", `document.querySelector('#analysis-sgf') !== null`, 2*time.Minute)
	require.True(t, Eval[bool](p, `performance.getEntriesByType('resource').some((e) => e.name.includes('/analysis/stream'))`),
		"the page followed the analysis over its stream")
	p.Open("/")
	p.Click("#nav-new")
	p.Wait("create dialog", `document.querySelector('#create-dialog form') !== null`, 5*time.Second)
	require.False(t, Eval[bool](p, `document.querySelector('#create-dialog form').elements.auto_analysis.checked`), "the choice is remembered")
}
