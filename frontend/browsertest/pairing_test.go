package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// seek picks a pool in the lobby's Quick pairing panel and seeks a game there.
func (p *Page) seek(rule, clock string) {
	p.t.Helper()
	p.Open("/")
	p.Wait("pairing panel", `document.querySelector('#pair-seek') !== null && !document.querySelector('#pair-seek').hidden`, 10*time.Second)
	Eval[bool](p, fmt.Sprintf(`(() => { document.querySelector('#pair-rule').value = %q;
		document.querySelector('#pair-clock').value = %q; return true; })()`, rule, clock))
	p.Click("#pair-seek")
}

// TestQuickPairingSeatsBothInOneRoom: two browsers seek a casual game in the same pool
// and land in the same room at opposite colours; a third one watching the lobby sees the
// game in the live list, pushed over the lobby WebSocket.
func TestQuickPairingSeatsBothInOneRoom(t *testing.T) {
	e := Setup(t)
	carol := e.NewPage(t, "carol")
	carol.Open("/")
	alice := e.NewPage(t, "alice")
	alice.seek("standard", "3+2")
	alice.Wait("waiting", `!document.querySelector('.pair-waiting').hidden && document.querySelector('#pair-wait').textContent.startsWith('Looking for an opponent')`, 10*time.Second)
	bob := e.NewPage(t, "bob")
	bob.seek("standard", "3+2")

	const inRoom = `window.__gomoku && __gomoku.conn === 'open' && (__gomoku.role === 'black' || __gomoku.role === 'white')`
	alice.Wait("alice seated", inRoom, 20*time.Second)
	bob.Wait("bob seated", inRoom, 20*time.Second)
	path := alice.RoomPath()
	require.True(t, strings.HasPrefix(path, "/r/"), path)
	require.Equal(t, path, bob.RoomPath(), "both in the same room")
	roles := []string{Eval[string](alice, `__gomoku.role`), Eval[string](bob, `__gomoku.role`)}
	require.ElementsMatch(t, []string{"black", "white"}, roles)
	require.Equal(t, "standard", Eval[string](alice, `__gomoku.game.rule`))

	id := strings.TrimPrefix(path, "/r/")
	carol.Wait("live list pushed", fmt.Sprintf(`document.querySelector('section[aria-labelledby="h-live"] a.room[data-room=%q]') !== null`, id), 15*time.Second)
}
