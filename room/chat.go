package room

import "github.com/gomoku-arena/gomoku/engine"

// MaxChatHistory bounds the chat lines a room keeps in its State (and so in snapshots):
// a page opened or reloaded mid-game shows the latest ones; older lines stay in the
// event log.
const MaxChatHistory = 100

// ChatLine is one chat message as a snapshot lists it (State.Chat).
type ChatLine struct {
	Seq     uint64 `json:"seq"`
	At      int64  `json:"at"`
	Channel string `json:"channel"` // ChannelPlayers or ChannelSpectators
	// Player is the author; its ID is empty for a spectator's line of a log written
	// before chat events carried the author.
	Player Player `json:"player"`
	Color  string `json:"color,omitempty"` // the author's seat when the line was written (players)
	Text   string `json:"text"`
}

// chatLine reads a chat event as folded into s (the state before it). Events of logs
// written before chat events carried Player and Channel name a player by Color only
// (the author is whoever held that seat at that point of the log) and a spectator by
// Name only.
func chatLine(s State, e Event) ChatLine {
	l := ChatLine{Seq: e.Seq, At: e.At, Channel: e.Channel, Color: e.Color, Text: e.Text}
	if e.Player != nil {
		l.Player = *e.Player
	}
	c := parseColor(e.Color)
	if l.Channel == "" {
		l.Channel = ChannelSpectators
		if c != engine.Empty {
			l.Channel = ChannelPlayers
		}
	}
	switch {
	case l.Player.Name != "":
	case c != engine.Empty:
		l.Player = s.seats[ci(c)].player
	default:
		l.Player.Name = e.Name
	}
	return l
}

// withChat returns s's chat history with l appended, the oldest lines beyond
// MaxChatHistory dropped. The history is never written in place (State is a value).
func withChat(history []ChatLine, l ChatLine) []ChatLine {
	h := append(history[:len(history):len(history)], l)
	if len(h) > MaxChatHistory {
		h = h[len(h)-MaxChatHistory:]
	}
	return h
}

// Chat returns the room's latest chat lines (at most MaxChatHistory), oldest first.
func (s State) Chat() []ChatLine { return append([]ChatLine(nil), s.chat...) }
