package browsertest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAnalyseAFinishedGame: a game against the AI ends (resigned); the page starts the
// analysis by itself, shows its progress, then the evaluation graph over every position;
// a click on the graph shows that position with the engine's best move, whose line is
// drawn on the board on request; a second viewer sees the same analysis without asking.
func TestAnalyseAFinishedGame(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "analysis")
	path := p.CreateGame("ai", `f.level.value = 'beginner'; f.color.value = 'black'`)
	p.PlayAndResign()
	p.Wait("analysed", `document.querySelector('#analysis-sgf') !== null`, 3*time.Minute)
	// One point per position (4 moves: 5 positions) on the graph's line.
	require.Equal(t, 5, Eval[int](p, `document.querySelector('#analysis-graph .eval-line').getAttribute('d').split(/[ML]/).filter(Boolean).length`))
	require.Contains(t, Eval[string](p, `document.querySelector('#analysis-sgf').getAttribute('href')`), "/analysis?game=1&format=sgf")

	// A click at the graph's left edge shows the empty board and the engine's first move.
	Eval[any](p, `(() => { const g = document.querySelector('#analysis-graph'); const r = g.getBoundingClientRect();
		g.dispatchEvent(new MouseEvent('click', { clientX: r.left + 1, clientY: r.top + r.height / 2, bubbles: true })); })()`)
	p.Wait("first position", `document.querySelectorAll('svg.board .stones .stone').length === 0`, 5*time.Second)
	p.Wait("best move hinted", `document.querySelector('svg.board .marks circle.hint') !== null`, 5*time.Second)
	require.Contains(t, Eval[string](p, `document.querySelector('#analysis-here').textContent`), "h8")
	p.Click("#analysis-line")
	p.Wait("line on the board", `document.querySelectorAll('svg.board .marks .pv').length > 0`, 5*time.Second)

	// Another viewer finds it done.
	q := e.NewPage(t, "viewer")
	q.Open(path + "?watch")
	q.Wait("shared analysis", `document.querySelector('#analysis-graph') !== null && document.querySelector('#analysis-sgf') !== null`, 30*time.Second)
}
