package browsertest

import (
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestLearnCompareAndTree sets up a position on the classroom page by clicking the board,
// compares the four searches, draws the tree and opens a node.
func TestLearnCompareAndTree(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "learn")
	p.Open("/learn?moves=h8i9")
	p.Wait("page", `document.querySelector('#learn-moves') && document.querySelector('#learn-moves').value === 'h8i9'`, 10*time.Second)
	// A click on j7 (column 9, row 6 from the bottom) adds black's third stone.
	Eval[cd.Void](p, `(() => {
		const svg = document.querySelector('.learn-board svg.board');
		const margin = 75, cell = (1000 - 2 * margin) / 14;
		const g = svg.createSVGPoint();
		g.x = margin + 9 * cell; g.y = margin + (14 - 6) * cell;
		const s = g.matrixTransform(svg.getScreenCTM());
		svg.dispatchEvent(new MouseEvent('click', { clientX: s.x, clientY: s.y, bubbles: true }));
	})()`)
	p.Wait("stone played", `document.querySelector('#learn-moves').value.length === 6`, 5*time.Second)
	require.Equal(t, "h8i9j7", Eval[string](p, `document.querySelector('#learn-moves').value`))

	// Compare at depth 2: four rows, all finished, minimax with the most nodes.
	Eval[cd.Void](p, `(() => { const s = document.querySelector('#learn-depth'); s.value = '2'; s.dispatchEvent(new Event('change')); })()`)
	p.Click("#learn-compare")
	p.Wait("table", `document.querySelectorAll('#learn-table tbody tr').length === 4`, 30*time.Second)
	nodes := Eval[[]float64](p, `[...document.querySelectorAll('#learn-table tbody tr td:nth-child(2)')].map(td => Number(td.textContent.replace(/[^0-9]/g, '')))`)
	require.Len(t, nodes, 4)
	for _, n := range nodes[1:] {
		require.LessOrEqual(t, n, nodes[0])
	}
	require.False(t, Eval[bool](p, `document.querySelector('.learn-compare .form-error') !== null`), "the searches agree")

	// The tree: the root is open, a child opens on click and shows its children; a cut
	// node explains itself.
	Eval[cd.Void](p, `(() => { const s = document.querySelector('#learn-width'); s.value = '4'; s.dispatchEvent(new Event('change')); })()`)
	p.Click("#learn-tree")
	p.Wait("tree", `document.querySelectorAll('#learn-treeview .learn-tree > li > .node-body > ul > li').length === 4`, 30*time.Second)
	first := `#learn-treeview .learn-tree > li > .node-body > ul > li:nth-child(2)`
	require.Equal(t, "false", Eval[string](p, `document.querySelector('`+first+` > .node-row').getAttribute('aria-expanded')`))
	p.Click(first + " > .node-row")
	p.Wait("opened", `document.querySelector('`+first+` > .node-row').getAttribute('aria-expanded') === 'true' && !document.querySelector('`+first+` > .node-body').hidden && document.querySelectorAll('`+first+` > .node-body > ul > li').length > 0`, 5*time.Second)
	// The opened node's move is drawn on the board as the line's first stone.
	require.Positive(t, Eval[int](p, `document.querySelectorAll('.learn-board .marks .pv').length`))
	// Every cut node says which bound was crossed and lists the moves never searched.
	cuts := Eval[int](p, `document.querySelectorAll('#learn-treeview .node-cut').length`)
	for i := 0; i < 5 && cuts == 0; i++ { // open more nodes until a cut is shown
		p.Click(`#learn-treeview button.node-row[aria-expanded="false"]`)
		cuts = Eval[int](p, `document.querySelectorAll('#learn-treeview .node-cut').length`)
	}
	require.Positive(t, cuts)
	cut := `[...document.querySelectorAll('#learn-treeview .node-cut')][0].closest('li')`
	Eval[cd.Void](p, `(() => { const b = `+cut+`.querySelector(':scope > button.node-row'); if (b.getAttribute('aria-expanded') === 'false') b.click(); })()`)
	p.Wait("cut explained", cut+`.querySelector(':scope > .node-body > .cut-why') !== null && `+cut+`.querySelectorAll(':scope > .node-body > ul > li.is-pruned').length > 0`, 5*time.Second)

	// The evaluation, pattern by pattern: black's open three h8 i8 j8 and white's two
	// against the edge; the formula gives white's value and a row marks its stones.
	p.Open("/learn?moves=h8a1i8a2j8")
	p.Wait("page", `document.querySelector('#learn-moves').value === 'h8a1i8a2j8'`, 10*time.Second)
	p.Click("#learn-eval")
	p.Wait("eval table", `document.querySelectorAll('#learn-evaltable tbody tr').length === 2`, 10*time.Second)
	require.Equal(t, []string{"closed_two", "open_three"}, Eval[[]string](p, `[...document.querySelectorAll('#learn-evaltable tbody tr')].map(tr => tr.dataset.kind)`), "white (to move) first")
	require.Contains(t, Eval[string](p, `document.querySelector('#learn-formula').textContent`), "-23,500")
	p.Click(`#learn-evaltable tr[data-kind="open_three"] button.learn-stones`)
	p.Wait("marked", `document.querySelectorAll('.learn-board .marks circle.win').length === 3`, 5*time.Second)
}
