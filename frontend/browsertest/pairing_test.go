package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// seek picks a pool in the lobby's Quick pairing panel (rated: the Rated box checked,
// which needs an account) and seeks a game there.
func (p *Page) seek(rule, clock string, rated bool) {
	p.t.Helper()
	p.Open("/")
	p.Wait("pairing panel", `document.querySelector('#pair-seek') !== null && !document.querySelector('#pair-seek').hidden`, 10*time.Second)
	if rated {
		p.Wait("rated box enabled", `!document.querySelector('#pair-rated').disabled`, 10*time.Second)
	}
	Eval[bool](p, fmt.Sprintf(`(() => { document.querySelector('#pair-rule').value = %q;
		document.querySelector('#pair-clock').value = %q; document.querySelector('#pair-rated').checked = %t; return true; })()`, rule, clock, rated))
	p.Click("#pair-seek")
}

// seatedTogether waits until two pages that sought a game are seated in one room at
// opposite colours, and returns the room's path and the pages in colour order.
func seatedTogether(t *testing.T, a, b *Page) (path string, black, white *Page) {
	t.Helper()
	const inRoom = `window.__gomoku && __gomoku.conn === 'open' && (__gomoku.role === 'black' || __gomoku.role === 'white')`
	a.Wait(a.name+" seated", inRoom, 20*time.Second)
	b.Wait(b.name+" seated", inRoom, 20*time.Second)
	path = a.RoomPath()
	require.True(t, strings.HasPrefix(path, "/r/"), path)
	require.Equal(t, path, b.RoomPath(), "both in the same room")
	black, white = a, b
	if Eval[string](a, `__gomoku.role`) == "white" {
		black, white = b, a
	}
	roles := []string{Eval[string](black, `__gomoku.role`), Eval[string](white, `__gomoku.role`)}
	require.Equal(t, []string{"black", "white"}, roles, "opposite colours")
	return path, black, white
}

// TestQuickPairingSeatsBothInOneRoom: two browsers seek a casual game in the same pool
// and land in the same room at opposite colours; a third one watching the lobby sees the
// game in the live list, pushed over the lobby WebSocket.
func TestQuickPairingSeatsBothInOneRoom(t *testing.T) {
	e := Setup(t)
	carol := e.NewPage(t, "carol")
	carol.Open("/")
	alice := e.NewPage(t, "alice")
	alice.seek("standard", "3+2", false)
	alice.Wait("waiting", `!document.querySelector('.pair-waiting').hidden && document.querySelector('#pair-wait').textContent.startsWith('Looking for an opponent')`, 10*time.Second)
	bob := e.NewPage(t, "bob")
	bob.seek("standard", "3+2", false)

	path, _, _ := seatedTogether(t, alice, bob)
	require.Equal(t, "standard", Eval[string](alice, `__gomoku.game.rule`))

	id := strings.TrimPrefix(path, "/r/")
	carol.Wait("live list pushed", fmt.Sprintf(`document.querySelector('section[aria-labelledby="h-live"] a.room[data-room=%q]') !== null`, id), 15*time.Second)
}
