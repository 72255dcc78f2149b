package browsertest

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFirstGameReplayedAfterRematch: once a rematch has started game 2, game 1 is still
// replayed move by move and downloaded from its own page, reached from the room.
func TestFirstGameReplayedAfterRematch(t *testing.T) {
	e := Setup(t)
	alice, bob, path := humanGame(t, e, "")
	name := func(p *Page) string { return Eval[string](p, `document.querySelector('#player-name').value`) }
	aliceName, bobName := name(alice), name(bob)
	playAlternately(t, alice, bob, 0, "h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8")
	alice.Wait("win", `__gomoku.game.phase === 'over'`, 10*time.Second)
	bob.Click("#btn-rematch")
	alice.Click(`#offer-rematch [data-answer="accept"]`)
	bob.WaitRole("black")
	playAlternately(t, bob, alice, 0, "c3")

	// The room links its earlier game; the link opens game 1's replay page.
	alice.Click("#game-link-1")
	alice.Wait("game 1 page", `document.querySelector('#archive-title') !== null && location.search === '?game=1'`, 10*time.Second)
	require.Equal(t, "Game 1 of 2", Eval[string](alice, `document.querySelector('#archive-title').textContent`))
	require.Equal(t, 9, Eval[int](alice, `document.querySelectorAll('svg.board .stones .stone').length`), "game 1's stones, not game 2's")
	require.Equal(t, 5, Eval[int](alice, `document.querySelectorAll('svg.board .win').length`))
	require.Contains(t, alice.StatusText(), "Black wins")
	require.Equal(t, []string{aliceName, bobName}, Eval[[]string](alice, `[...document.querySelectorAll('.archive-seat .name')].map(e => e.textContent)`))
	alice.Click("#rp-first")
	alice.Wait("replay at 0", `document.querySelectorAll('svg.board .stones .stone').length === 0`, 5*time.Second)
	alice.Click("#rp-next")
	alice.Click("#rp-next")
	alice.Wait("replay at 2", `document.querySelectorAll('svg.board .stones .stone').length === 2`, 5*time.Second)
	require.Equal(t, "Move 2 of 9", Eval[string](alice, `document.querySelector('#rp-pos').textContent`))

	// The downloads are game 1's.
	Eval[bool](alice, `(fetch(document.querySelector('#dl-sgf').href).then(r => r.text()).then(s => { window.__sgf = s; }), true)`)
	alice.Wait("SGF fetched", `typeof window.__sgf === 'string'`, 10*time.Second)
	sgf := Eval[string](alice, `window.__sgf`)
	require.True(t, strings.HasPrefix(sgf, "(;FF[4]"), sgf)
	require.Contains(t, sgf, "PB["+aliceName+"]PW["+bobName+"]")
	require.Contains(t, sgf, "RE[B+]")
	require.Contains(t, sgf, ";B[lh])")

	// A reload keeps the page; the last game's link goes back to the live room.
	alice.Reload()
	alice.Wait("game 1 page again", `document.querySelectorAll('svg.board .stones .stone').length === 9`, 10*time.Second)
	alice.Click("#game-link-2")
	alice.Wait("back in the room", `location.pathname === `+jsString(path)+` && location.search === '' && window.__gomoku && __gomoku.conn === 'open'`, 10*time.Second)
	alice.WaitMoves(1)
	alice.WaitRole("white")

	// A game the room never had.
	alice.Open(path + "?game=7")
	alice.Wait("no such game", `document.querySelector('#fatal') !== null`, 10*time.Second)
	require.Equal(t, "No such game", Eval[string](alice, `document.querySelector('#fatal').textContent`))
}
