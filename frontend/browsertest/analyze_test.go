package browsertest

import (
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestAnalysisBoardLiveLine sets up a position on the analysis board (a share link, then
// a click on the board) and gets the engine's live best line, drawn on the board.
func TestAnalysisBoardLiveLine(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "analyze")
	p.Open("/analysis?moves=h8a1i8a2")
	p.Wait("page", `document.querySelector('#an-moves') && document.querySelector('#an-moves').value === 'h8a1i8a2'`, 10*time.Second)
	// A click on j8 (column 9, row 7 from the bottom) plays black's open three.
	Eval[cd.Void](p, `(() => {
		const svg = document.querySelector('.learn-board svg.board');
		const margin = 75, cell = (1000 - 2 * margin) / 14;
		const g = svg.createSVGPoint();
		g.x = margin + 9 * cell; g.y = margin + (14 - 7) * cell;
		const s = g.matrixTransform(svg.getScreenCTM());
		svg.dispatchEvent(new MouseEvent('click', { clientX: s.x, clientY: s.y, bubbles: true }));
	})()`)
	p.Wait("stone played", `document.querySelector('#an-moves').value === 'h8a1i8a2j8'`, 5*time.Second)
	require.Contains(t, Eval[string](p, `location.search`), "moves=h8a1i8a2j8", "the share link follows the position")

	// White to move must stop the open three: the engine's lines come live, the best
	// one's moves drawn on the board.
	p.Wait("lines", `document.querySelectorAll('#an-lines tbody tr').length > 0`, 60*time.Second)
	best := Eval[string](p, `document.querySelector('#an-lines tbody tr').dataset.move`)
	require.Contains(t, []string{"g8", "k8", "f8", "l8"}, best, "a defence of the open three")
	require.Positive(t, Eval[int](p, `document.querySelectorAll('.learn-board .marks .pv').length`))
	require.Contains(t, Eval[string](p, `document.querySelector('#an-stats').textContent`), "nodes")

	// Back one move: the analysis follows the position (black to move again).
	p.Click("#an-back")
	p.Wait("back", `document.querySelector('#an-moves').value === 'h8a1i8a2'`, 5*time.Second)
	p.Wait("new lines", `document.querySelectorAll('#an-lines tbody tr').length > 0`, 60*time.Second)
	// The variation list shows both the line and a way back to j8.
	require.GreaterOrEqual(t, Eval[int](p, `document.querySelectorAll('#an-tree .an-move').length`), 5)
}
