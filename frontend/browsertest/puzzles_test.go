package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

// clickPoint clicks the page's board at a point like "h8" with a real mouse event; n is
// the board's size.
func clickPoint(p *Page, point string, n int) {
	p.t.Helper()
	xy := Eval[[]float64](p, fmt.Sprintf(`(() => {
		const sv = document.querySelector('svg.board'); sv.scrollIntoView({block: 'nearest'});
		const r = sv.getBoundingClientRect(); const n = %d - 1;
		const pt = %q; const x = pt.charCodeAt(0) - 97, y = Number(pt.slice(1)) - 1;
		return [r.left + r.width * (0.075 + 0.85 * x / n), r.top + r.height * (0.075 + 0.85 * (n - y) / n)];
	})()`, n, point))
	p.Do("play "+point, cd.MouseClickXY(xy[0], xy[1]))
}

// puzzleState is the part of the puzzle page's state (window.__puzzle) the tests read.
type puzzleState struct {
	Puzzle struct {
		ID     string   `json:"id"`
		Size   int      `json:"size"`
		Moves  []string `json:"moves"`
		Source string   `json:"source"`
	} `json:"puzzle"`
	Line     []string `json:"line"`
	Phase    string   `json:"phase"`
	Solution *struct {
		Moves []string `json:"moves"`
	} `json:"solution"`
}

// puzzleOf reads the puzzle page's state.
func puzzleOf(p *Page) puzzleState {
	p.t.Helper()
	var st puzzleState
	require.NoError(p.t, json.Unmarshal([]byte(Eval[string](p, `JSON.stringify(__puzzle.state())`)), &st))
	return st
}

// winningMove returns a winning move of the shipped puzzle id after line, as the
// engine's puzzle solver finds it (engine/puzzle, which the server's checker uses too).
func winningMove(t *testing.T, id string, line []string) string {
	t.Helper()
	all, err := puzzle.Shipped()
	require.NoError(t, err)
	i := slices.IndexFunc(all, func(p puzzle.Puzzle) bool { return p.ID == id })
	require.GreaterOrEqual(t, i, 0, id)
	pts, err := engine.ParseMoves(strings.Join(line, " "), all[i].Size)
	require.NoError(t, err)
	mv, err := puzzle.Hint(context.Background(), engine.New(engine.Options{HashMiB: 1}), all[i], pts, 0)
	require.NoError(t, err)
	return mv.String()
}

// TestPuzzleSolve opens a shipped VCF puzzle by its link and plays the winning moves: the
// server answers each with its defence until the five; the page says "solved" with the
// player's rating change. A second puzzle answered by a wrong move says "wrong" with the
// rating change and animates the solution onto the board; a hint is marked on the board
// and the solution shown on request from a new attempt.
func TestPuzzleSolve(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "solver")
	p.Open("/puzzles/vcf-001")
	p.Wait("puzzle", `window.__puzzle && __puzzle.state() && __puzzle.state().puzzle.id === 'vcf-001'`, 15*time.Second)
	require.Equal(t, "/puzzles/vcf-001", Eval[string](p, `location.pathname`))
	require.Equal(t, "shipped", Eval[string](p, `document.querySelector('#puz-source').dataset.source`))
	require.Equal(t, "vcf", Eval[string](p, `document.querySelector('#puz-category').dataset.category`))
	require.Contains(t, Eval[string](p, `document.querySelector('#puz-headline').textContent`), "to play and win")
	require.True(t, strings.HasSuffix(Eval[string](p, `document.querySelector('#puz-player').textContent`), "?"), "a new player's rating is provisional")
	st := puzzleOf(p)
	require.Equal(t, len(st.Puzzle.Moves), Eval[int](p, `document.querySelectorAll('svg.board .stones .stone').length`))

	replies := 0
	for i := 0; i < 10 && st.Phase == "ready"; i++ {
		move := winningMove(t, st.Puzzle.ID, st.Line)
		clickPoint(p, move, st.Puzzle.Size)
		n := len(st.Line)
		p.Wait("answer to "+move, fmt.Sprintf(`__puzzle.state().phase !== 'waiting' && __puzzle.state().line.length > %d`, n), 30*time.Second)
		st = puzzleOf(p)
		require.Equal(t, move, st.Line[n])
		if st.Phase == "ready" {
			replies++
			require.Equal(t, "correct", Eval[string](p, `document.querySelector('#puz-feedback').dataset.result`))
			require.Contains(t, Eval[string](p, `document.querySelector('#puz-feedback').textContent`), st.Line[n+1], "the reply is named")
			require.Equal(t, len(st.Puzzle.Moves)+len(st.Line), Eval[int](p, `document.querySelectorAll('svg.board .stones .stone').length`), "the reply is on the board")
		}
	}
	require.Equal(t, "solved", st.Phase)
	require.Positive(t, replies, "the server defended")
	require.Equal(t, "solved", Eval[string](p, `document.querySelector('#puz-feedback').dataset.result`))
	change := Eval[string](p, `document.querySelector('#puz-change').textContent`)
	require.Regexp(t, `\d+\?? → \d+\? \(\+\d+\)`, change, "a rated first attempt: the rating rises")
	p.Wait("the five", `document.querySelectorAll('svg.board .marks circle.win').length >= 5`, 10*time.Second)

	// Another puzzle answered wrong: a far corner.
	p.Open("/puzzles/vcf-003")
	p.Wait("second puzzle", `window.__puzzle && __puzzle.state() && __puzzle.state().puzzle.id === 'vcf-003'`, 15*time.Second)
	st = puzzleOf(p)
	wrong := ""
	for _, c := range []string{"a1", "o1", "a15", "o15", "a2", "b1"} {
		if !strings.Contains(" "+strings.Join(st.Puzzle.Moves, " ")+" ", " "+c+" ") {
			wrong = c
			break
		}
	}
	clickPoint(p, wrong, st.Puzzle.Size)
	p.Wait("wrong", `__puzzle.state().phase === 'wrong'`, 30*time.Second)
	require.Equal(t, "wrong", Eval[string](p, `document.querySelector('#puz-feedback').dataset.result`))
	require.Regexp(t, `→ \d+\? \(−\d+\)`, Eval[string](p, `document.querySelector('#puz-change').textContent`), "the rating falls")
	st = puzzleOf(p)
	require.NotNil(t, st.Solution)
	require.NotEmpty(t, st.Solution.Moves)
	p.Wait("solution animated", fmt.Sprintf(`document.querySelectorAll('svg.board .marks .pv').length === %d`, len(st.Solution.Moves)), 30*time.Second)
	require.Equal(t, len(st.Puzzle.Moves), Eval[int](p, `document.querySelectorAll('svg.board .stones .stone').length`), "the board went back before the wrong move")

	// Again: a hint, then the solution on request.
	p.Click("#puz-retry")
	p.Click("#puz-hint")
	p.Wait("hint", `document.querySelector('svg.board .marks circle.hint') !== null`, 30*time.Second)
	p.Click("#puz-solution")
	p.Wait("shown", `__puzzle.state().phase === 'shown' && document.querySelector('#puz-feedback').dataset.result === 'shown'`, 30*time.Second)
	st = puzzleOf(p)
	p.Wait("solution animated", fmt.Sprintf(`document.querySelectorAll('svg.board .marks .pv').length === %d`, len(st.Solution.Moves)), 30*time.Second)

	// The next puzzle of a rule, in Chinese.
	p.Click("#lang-toggle")
	Eval[cd.Void](p, `(() => { const s = document.querySelector('#puz-rule'); s.value = 'renju'; s.dispatchEvent(new Event('change')); })()`)
	p.Wait("a renju puzzle", `__puzzle.state() && __puzzle.state().puzzle.rule === 'renju' && location.pathname === '/puzzles/' + __puzzle.state().puzzle.id`, 15*time.Second)
	require.Contains(t, Eval[string](p, `document.querySelector('#puz-rulename').textContent`), "连珠")

	// The page and its top bar fit from a phone to a desktop, in both languages.
	for _, lang := range []string{"zh", "en"} {
		for _, w := range []int64{360, 760, 1000} {
			p.Viewport(w, 800)
			require.LessOrEqual(t, Eval[int](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`), 0, "%s at %d px", lang, w)
		}
		p.Click("#lang-toggle")
	}
}
