package browsertest

import (
	"fmt"
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"
)

// atLeast waits until the page shows at least n moves (an AI may answer at once).
func atLeast(p *Page, n int) {
	p.t.Helper()
	p.Wait(fmt.Sprintf("%d moves or more", n), fmt.Sprintf(`__gomoku.game.moves.length >= %d`, n), 30*time.Second)
}

// playFree places a stone on the first empty point of a list near the centre once the
// page lets this player play, waits for the server's move and returns the ply it had.
func playFree(p *Page) int {
	p.t.Helper()
	p.Wait("my stone", `__gomoku.game.phase === 'playing' && document.querySelector('#status').className.includes('tone-turn')`, 20*time.Second)
	n := Eval[int](p, `__gomoku.game.moves.length`)
	point := Eval[string](p, `(() => { const used = new Set(__gomoku.game.moves.map((m) => m.point));
		for (const c of 'fghijklm') for (let r = 5; r <= 11; r++) if (!used.has(c + r)) return c + r; return ''; })()`)
	require.NotEmpty(p.t, point)
	p.Play(point)
	atLeast(p, n+1)
	return n
}

// waitStep waits until the opening step is one of steps ("" is normal play).
func waitStep(p *Page, steps string) {
	p.t.Helper()
	p.Wait("opening step "+steps, fmt.Sprintf(`%q.split(',').includes(__gomoku.game.step)`, steps), 30*time.Second)
}

// TestSwap2HumanProposesAIChooses: the human is the first player of a swap2 game
// against the AI: the page prompts the three stones (black, white, black), the AI
// chooses (a colour, or two more stones and the choice handed back, which the page
// offers with buttons), and the game goes on with normal moves on both sides.
func TestSwap2HumanProposesAIChooses(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "first")
	p.CreateGame("ai", `f.level.value = 'beginner'; f.color.value = 'black'; f.opening.value = 'swap2'`)
	p.WaitRole("black")
	waitStep(p, "place3")
	require.Contains(t, p.StatusText(), "Place 3 stones: black, white, black")
	p.Play("h8")
	p.WaitMoves(1)
	require.Contains(t, p.StatusText(), "next White", "the second stone is white")
	p.Play("i9")
	p.WaitMoves(2)
	p.Play("j7")
	atLeast(p, 3) // the AI may choose white and play stone 4 at once
	require.Equal(t, []string{"black", "white", "black"}, Eval[[]string](p, `__gomoku.game.moves.slice(0, 3).map((m) => m.color)`))
	waitStep(p, ",choose2")
	if Eval[string](p, `__gomoku.game.step`) == "choose2" {
		require.Equal(t, 5, len(p.Moves()), "the AI placed two more stones")
		require.Contains(t, p.StatusText(), "Choose: play black / play white")
		require.Equal(t, 0, Eval[int](p, `document.querySelectorAll('#btn-choose-place2').length`), "no third option in the last choice")
		p.Click("#btn-choose-white")
		waitStep(p, "")
		p.WaitRole("white")
	}
	atLeast(p, playFree(p)+2) // the AI answers as usual
	require.Equal(t, "", Eval[string](p, `__gomoku.game.step`))
}

// TestSwap2AIProposesHumanPlacesTwoMore: the AI is the first player: it proposes three
// stones, the human takes the third option (two more stones, white then black), the AI
// chooses a colour and the game goes on. A reload mid-opening resumes the step, and the
// finished game's replay steps through the opening stones.
func TestSwap2AIProposesHumanPlacesTwoMore(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "second")
	p.CreateGame("ai", `f.level.value = 'novice'; f.color.value = 'white'; f.opening.value = 'swap2'`)
	p.WaitRole("white")
	waitStep(p, "choose")
	p.WaitMoves(3) // the AI's proposal; nothing moves until the human chooses
	require.Contains(t, p.StatusText(), "Choose: play black / play white / place two more")
	p.Wait("choice buttons", `['black', 'white', 'place2'].every((c) => document.querySelector('#btn-choose-' + c))`, 5*time.Second)
	require.True(t, Eval[bool](p, `document.querySelector('.pcard[data-color="white"] .psub').textContent.includes('Second player (chooses)')`),
		"the cards name the roles while the colours are open")

	p.Reload()
	p.WaitRole("white")
	waitStep(p, "choose")
	p.Click("#btn-choose-place2")
	waitStep(p, "place2")
	require.Contains(t, p.StatusText(), "Place 2 more stones: white, black")
	for i := 0; i < 2; i++ {
		playFree(p)
	}
	require.Equal(t, []string{"black", "white", "black", "white", "black"}, Eval[[]string](p, `__gomoku.game.moves.slice(0, 5).map((m) => m.color)`), "the AI may have chosen and played on already")
	waitStep(p, "")
	role := Eval[string](p, `__gomoku.role`)
	require.Contains(t, []string{"black", "white"}, role)
	atLeast(p, playFree(p)+2) // white plays stone 6 (the human, or the AI before the human's turn)

	p.Click("#btn-resign")
	p.Click("#btn-resign")
	p.Wait("over", `__gomoku.game.phase === 'over'`, 10*time.Second)
	Eval[cd.Void](p, `document.activeElement && document.activeElement.blur()`)
	const stones = `document.querySelectorAll('svg.board .stones .stone').length`
	p.Do("home", cd.KeyEvent(kb.Home))
	p.Wait("replay start", stones+` === 0`, 5*time.Second)
	for i := 1; i <= 5; i++ {
		p.Do("right", cd.KeyEvent(kb.ArrowRight))
		p.Wait(fmt.Sprintf("opening stone %d", i), fmt.Sprintf(`%s === %d`, stones, i), 5*time.Second)
	}
}
