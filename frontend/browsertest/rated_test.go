package browsertest

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/rating"
)

// watchToasts records every toast the page shows from now on in window.__toastLog (a
// toast disappears after a few seconds, a wait elsewhere may miss it).
func (p *Page) watchToasts() {
	p.t.Helper()
	Eval[bool](p, `(() => { window.__toastLog = []; const box = document.getElementById('toasts');
		new MutationObserver((ms) => ms.forEach((m) => m.addedNodes.forEach((n) => __toastLog.push(n.textContent))))
			.observe(box, {childList: true}); return true; })()`)
}

// TestRatedQuickPairingToThePlayerPages: Alice and Bob sign up, Alice logs in on a second
// browser (the same player), both seek a rated game in one pool, play it to five, see
// their rating change at game over, and their player pages show the new rating in that
// pool and the game.
func TestRatedQuickPairingToThePlayerPages(t *testing.T) {
	e := Setup(t)
	laptop := e.NewPage(t, "alice-laptop")
	laptop.signUp("alice_r", "tulip-sky-42")
	aliceID := laptop.storedPlayer().ID
	require.NotEmpty(t, aliceID)
	bob := e.NewPage(t, "bob")
	bob.signUp("bob_r", "maple-rain-77")
	bobID := bob.storedPlayer().ID

	alice := e.NewPage(t, "alice-phone")
	alice.logIn("alice_r", "tulip-sky-42")
	require.Equal(t, aliceID, alice.storedPlayer().ID, "the same player on the second device")

	// The panel shows the rating pairing uses in the chosen pool (the server's pool table).
	alice.Wait("pool rating", `!document.querySelector('#pair-rating').hidden`, 10*time.Second)
	require.Equal(t, "Your rating here: 1500?", Eval[string](alice, `document.querySelector('#pair-rating').textContent`))
	alice.seek("freestyle", "3+2", true)
	alice.Wait("waiting", `!document.querySelector('.pair-waiting').hidden`, 10*time.Second)
	bob.seek("freestyle", "3+2", true)
	path, black, white := seatedTogether(t, alice, bob)

	// Black makes five in a column while white plays along the edge.
	black.watchToasts()
	white.watchToasts()
	playAlternately(t, black, white, 0, "h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12")
	for _, p := range []*Page{black, white} {
		p.Wait("game over", `__gomoku.game.phase === 'over'`, 10*time.Second)
		p.Wait("rating toast", `__toastLog.some((s) => s.startsWith('Rating 1500 → '))`, 15*time.Second)
		for _, c := range []string{"black", "white"} {
			p.Wait(c+" card shows the change", `(document.querySelector('[data-rating="`+c+`"]') || {}).textContent.includes('(')`, 10*time.Second)
		}
	}
	require.Contains(t, Eval[string](black, `document.querySelector('[data-rating="black"]').textContent`), "(+")
	require.Contains(t, Eval[string](black, `document.querySelector('[data-rating="white"]').textContent`), "(−")

	for _, u := range []struct {
		p        *Page
		name     string
		opponent string
	}{{alice, "alice_r", bobID}, {bob, "bob_r", aliceID}} {
		u.p.Open("/@/" + u.name)
		u.p.Wait("player page", `document.querySelector('#player-ratings .rating-pool[data-pool="freestyle-blitz"] strong.rating') !== null`, 15*time.Second)
		rating := Eval[string](u.p, `document.querySelector('#player-ratings .rating-pool[data-pool="freestyle-blitz"] strong.rating').textContent`)
		require.NotEmpty(t, rating)
		require.False(t, strings.HasPrefix(rating, "1500"), "%s: rating %q moved from 1500", u.name, rating)
		require.True(t, strings.HasSuffix(rating, "?"), "%s: rating %q is provisional after one game", u.name, rating)
		require.NotEmpty(t, Eval[string](u.p, `document.querySelector('#player-ratings .rating-pool[data-pool="freestyle-blitz"] svg.rating-chart polyline').getAttribute('points')`),
			"%s: the rating-history chart", u.name)
		won, wdl := "Won", "Rated games: 1 won, 0 drawn, 0 lost"
		if u.p != black {
			won, wdl = "Lost", "Rated games: 0 won, 0 drawn, 1 lost"
		}
		require.Equal(t, wdl, Eval[string](u.p, `document.querySelector('#player-wdl').textContent`), u.name)
		cells := Eval[[]string](u.p, `[...document.querySelectorAll('#player-games tbody tr td')].map((td) => td.textContent)`)
		require.Len(t, cells, 5, u.name)
		require.Equal(t, []string{won, "Freestyle"}, cells[1:3], "%s: result and rule", u.name)
		require.Regexp(t, `^\d+\? \([+−]\d+\)$`, cells[3], "%s: the change, provisional", u.name)
		require.Equal(t, 1, Eval[int](u.p, `document.querySelectorAll('#player-games tbody tr').length`), u.name)
		require.Equal(t, "/@/id/"+u.opponent, Eval[string](u.p, `document.querySelector('#player-games tbody tr a').getAttribute('href')`),
			"%s: the game against the opponent", u.name)
		require.Contains(t, Eval[string](u.p, `document.querySelector('#player-games tbody tr a.btn').getAttribute('href')`),
			strings.TrimPrefix(path, "/r/"), "%s: the replay of this room's game", u.name)
	}
}

// TestRatedLevelsWhereAnAIIsChosen: the New game dialog names each AI level with its
// published rating (the server's table), and the lobby shows it beside an AI seat.
func TestRatedLevelsWhereAnAIIsChosen(t *testing.T) {
	e := Setup(t)
	p := e.NewPage(t, "chooser")
	master, ok := rating.LevelRating("master")
	require.True(t, ok)
	path := p.CreateGame("ai", `f.level.value = 'master'`)
	p.Open("/")
	p.Click("#nav-new")
	p.Wait("create dialog", `document.querySelector('#create-dialog #f-level') !== null`, 5*time.Second)
	require.Equal(t, "Master, rating "+strconv.Itoa(master),
		Eval[string](p, `document.querySelector('#f-level option[value="master"]').textContent`))
	Eval[bool](p, `(() => { document.getElementById('create-dialog').close(); return true; })()`)
	id := strings.TrimPrefix(path, "/r/")
	// The AI's badge, not the guest's own "1500?" in the other seat (colours are drawn).
	aiBadge := `document.querySelector('a.room[data-room="` + id + `"] .badge-rating[data-kind="ai"]')`
	p.Wait("the AI room in the lobby", aiBadge+` !== null`, 15*time.Second)
	require.Equal(t, strconv.Itoa(master), Eval[string](p, aiBadge+`.textContent`))
}
