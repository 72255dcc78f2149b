package browsertest

import (
	"testing"
	"time"

	cd "github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// chatLog returns the chat lines a page shows, as "name: text".
func chatLog(p *Page) []string {
	return Eval[[]string](p, `[...document.querySelectorAll('#chat-log li')].map(li => li.querySelector('.who').textContent.trim() + ' ' + li.querySelector('.text').textContent)`)
}

func TestChatChannelsNamesMuteAndUnread(t *testing.T) {
	e := Setup(t)
	alice, bob, path := humanGame(t, e, "")
	bobName := Eval[string](bob, `document.getElementById('player-name').value`)
	require.NotEmpty(t, bobName)
	// An anonymous spectator reads the chat and is asked for a name instead of a box that errors.
	carol := e.NewPage(t, "carol")
	carol.Open(path + "?watch=1")
	carol.WaitRole("spectator")
	carol.Click("#tab-chat")
	carol.Wait("name prompt", `document.querySelector('#chat-name-form').offsetParent !== null && document.querySelector('#chat-input').offsetParent === null`, 5*time.Second)
	Eval[cd.Void](carol, `document.querySelector('#chat-name').value = 'Carol'`)
	carol.Click("#chat-name-btn")
	carol.Wait("can write", `document.querySelector('#chat-input').offsetParent !== null && __gomoku.conn === 'open'`, 15*time.Second)
	carol.Do("type", cd.SendKeys(cd.CSS("#chat-input"), "play i9!\r"))

	// The players do not see the spectators' line, and it does not count as unread.
	alice.Wait("line arrived", `__gomoku.game.messages.some(m => m.text === 'play i9!')`, 10*time.Second)
	require.True(t, Eval[bool](alice, `document.querySelector('#badge-chat').hidden`), "a hidden channel is not unread")
	bob.Click("#tab-chat")
	bob.Do("type", cd.SendKeys(cd.CSS("#chat-input"), "hello\r"))
	alice.Wait("unread count", `!document.querySelector('#badge-chat').hidden && document.querySelector('#badge-chat').textContent === '1'`, 10*time.Second)
	alice.Click("#tab-chat")
	alice.Wait("read", `document.querySelector('#badge-chat').hidden`, 5*time.Second)
	require.Equal(t, []string{bobName + ": hello"}, chatLog(alice), "labelled with the name, spectators' chat off")

	// The spectator sees both channels.
	carol.Wait("both channels", `document.querySelectorAll('#chat-log li').length === 2`, 10*time.Second)
	require.Equal(t, []string{"spectator Carol: play i9!", bobName + ": hello"}, chatLog(carol))

	// A player turns the spectators' chat on (remembered), then mutes Carol.
	alice.Click("#chat-spectators")
	alice.Wait("spectators' chat shown", `document.querySelectorAll('#chat-log li').length === 2`, 5*time.Second)
	alice.Click(`#chat-log li[data-channel="spectators"] [data-mute]`)
	alice.Wait("muted", `document.querySelectorAll('#chat-log li').length === 1 && document.querySelector('[data-unmute]') !== null`, 5*time.Second)
	alice.Reload()
	alice.WaitRole("black")
	alice.Click("#tab-chat")
	alice.Wait("history after a reload", `document.querySelectorAll('#chat-log li').length === 1`, 10*time.Second)
	require.Equal(t, []string{bobName + ": hello"}, chatLog(alice), "the mute and the switch survive a reload; the history comes with the snapshot")
	require.True(t, Eval[bool](alice, `document.querySelector('#chat-spectators').checked`))
	alice.Click("[data-unmute]")
	alice.Wait("unmuted", `document.querySelectorAll('#chat-log li').length === 2`, 5*time.Second)
}
