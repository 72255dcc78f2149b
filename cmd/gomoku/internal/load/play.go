package load

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// game is one room under load: its two players and spectators share the send times of
// its moves (for the latencies) and the record of its events (for the order check).
type game struct {
	idx      int
	roomID   string
	interval time.Duration // mean time between moves (0: as fast as turns allow)
	ai       bool          // white is an AI seat
	jitter   float64

	mu       sync.RWMutex
	sent     map[uint64]time.Time // moveKey → when the mover sent it
	record   map[uint64]eventKey  // seq → event content, from the first client that saw it
	lastMove time.Time
	clients  []*client
}

func newGame(idx int, roomID string, interval time.Duration, jitter float64) *game {
	return &game{idx: idx, roomID: roomID, interval: interval, jitter: jitter,
		sent: map[uint64]time.Time{}, record: map[uint64]eventKey{}}
}

func moveKey(gameNo, ply int) uint64 { return uint64(gameNo)<<20 | uint64(ply) }

// check compares an event with the room's record; false when another client saw a
// different event under the same seq.
func (g *game) check(seq uint64, k eventKey) (eventKey, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if d, ok := g.record[seq]; ok {
		return d, d == k
	}
	g.record[seq] = k
	return k, true
}

func (g *game) sentAt(gameNo, ply int) (time.Time, bool) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	t, ok := g.sent[moveKey(gameNo, ply)]
	return t, ok
}

// event applies one persisted event: order and content checks, board, latencies, and
// the player's next action.
func (c *client) event(e *inEvent) {
	st := c.r.stats
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.Seq != 0 && e.Seq != c.lastSeq+1 && c.lastSeq != 0 {
		what := "gap"
		if e.Seq <= c.lastSeq {
			what = "repeat"
		}
		if c.replaying {
			what += " right after rejoin"
		}
		st.Violation("room %s: event seq %d after %d (%s)", c.roomID(), e.Seq, c.lastSeq, what)
		if e.Seq <= c.lastSeq {
			return // already applied
		}
	}
	c.replaying = false
	c.lastSeq = e.Seq
	if c.g == nil {
		return
	}
	if want, ok := c.g.check(e.Seq, e.key()); !ok {
		st.Violation("room %s: seq %d is %s here but %s elsewhere", c.g.roomID, e.Seq, e.key(), want)
	}
	if c.board == nil {
		c.board = NewBoard(15)
	}
	switch e.Kind {
	case "started":
		c.phase = "playing"
	case "seated":
		if !c.spectator && e.Player != nil && e.Player.ID == c.playerID {
			c.color = e.Color
		}
	case "move":
		if err := c.board.Play(e.Point); err != nil {
			st.Violation("room %s: seq %d: %v", c.g.roomID, e.Seq, err)
		}
		if c.board.Ply() != e.Ply+1 {
			st.Violation("room %s: seq %d: move at ply %d on a board of %d stones", c.g.roomID, e.Seq, e.Ply, c.board.Ply()-1)
		}
		if e.Ply == c.sentPly {
			c.sentPly = -1
		}
		if t, ok := c.g.sentAt(e.Game, e.Ply); ok && c.r.measuring() {
			switch {
			case c.spectator:
				st.Spectator.Record(now.Sub(t))
			case e.Color != c.color:
				st.MoveRTT.Record(now.Sub(t))
			}
		}
		if c.g.ai && !c.spectator && e.Color != c.color && c.r.measuring() {
			if t, ok := c.g.sentAt(e.Game, e.Ply-1); ok {
				st.AIReply.Record(now.Sub(t))
			}
		}
	case "game_over":
		c.phase = "over"
		c.sentPly = -1
		if !c.spectator && (c.color == "white" || c.g.ai) { // white offers, black accepts: no races
			st.GamesFinished.Add(1)
			c.offer(fmt.Sprintf("r%d", e.Game))
		}
	case "rematch_offered":
		if !c.spectator && c.color != "" && e.Color != c.color {
			c.offer(fmt.Sprintf("a%d", e.Game))
		}
	case "rematch":
		c.phase, c.gameNo = "playing", e.Game
		c.board = NewBoard(c.board.Size())
		c.sentPly = -1
		switch c.color { // colours swap
		case "black":
			c.color = "white"
		case "white":
			c.color = "black"
		}
	}
	if e.Game > c.gameNo {
		c.gameNo = e.Game
	}
	c.armLocked()
}

// offer sends a rematch offer or acceptance (from the reader goroutine, c.mu held).
func (c *client) offer(id string) {
	if c.r.stopping() {
		return
	}
	go c.send(protocol.ClientMsg{Type: protocol.TypeRematch, ID: id})
}

func (c *client) ack(m *inMsg) {
	st := c.r.stats
	if !strings.HasPrefix(m.ID, "m") {
		return // sit and rematch acks
	}
	st.Acks.Add(1)
	if m.Duplicate {
		st.Duplicates.Add(1)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gameNo, ply, ok := parseMoveID(m.ID); ok && c.g != nil {
		if t, ok := c.g.sentAt(gameNo, ply); ok && c.r.measuring() {
			st.AckRTT.Record(time.Since(t))
		}
	}
}

// myTurnLocked reports whether this player should move now and has not sent a move for
// the current ply yet (c.mu held).
func (c *client) myTurnLocked() bool {
	if c.spectator || c.g == nil || !c.r.moving() || c.phase != "playing" || c.board == nil ||
		c.color == "" || c.sentPly == c.board.Ply() {
		return false
	}
	toMove := "black"
	if c.board.Ply()%2 == 1 {
		toMove = "white"
	}
	return toMove == c.color
}

// armLocked schedules this player's next move when it is its turn (c.mu held).
func (c *client) armLocked() {
	if c.timer != nil || !c.myTurnLocked() {
		return
	}
	g := c.g
	now := time.Now()
	g.mu.Lock()
	at := now
	switch {
	case g.interval > 0 && g.lastMove.IsZero():
		// The window's first move: spread over one interval, so that N games start in
		// their steady state instead of N moves in the same millisecond (a burst that
		// alone made the p99 of 1,000 games at 1 move/s).
		at = now.Add(time.Duration(c.rng.Float64() * float64(g.interval)))
	case g.interval > 0:
		iv := time.Duration(float64(g.interval) * (1 + g.jitter*(2*c.rng.Float64()-1)))
		if next := g.lastMove.Add(iv); next.After(now) {
			at = next
		}
	}
	g.lastMove = at
	g.mu.Unlock()
	c.timer = time.AfterFunc(at.Sub(now), c.play)
}

// play sends the move chosen for the current ply.
func (c *client) play() {
	c.mu.Lock()
	c.timer = nil
	if !c.myTurnLocked() { // the game may have ended, or a rematch swapped colours, meanwhile
		c.mu.Unlock()
		return
	}
	ply := c.board.Ply()
	p, err := c.board.Choose(c.rng, 0.8)
	if err != nil {
		c.mu.Unlock()
		return // board full: the server ends the game
	}
	c.sentPly, c.sentPoint = ply, p
	key := moveKey(c.gameNo, ply)
	frame := moveFrame(c.gameNo, ply, p)
	c.mu.Unlock()
	c.g.mu.Lock()
	c.g.sent[key] = time.Now()
	c.g.mu.Unlock()
	if c.sendFrame(frame) {
		c.r.stats.MovesSent.Add(1)
	} else {
		c.mu.Lock()
		c.sentPly = -1 // not connected: the rejoin re-arms
		c.mu.Unlock()
	}
}

// moveFrame is {"type":"move","id":"m<game>.<ply>","ply":<ply>,"point":"<p>"}, built
// without reflection (p is a point name: no escaping needed).
func moveFrame(game, ply int, p string) []byte {
	b := make([]byte, 0, 64)
	b = append(b, `{"type":"move","id":"m`...)
	b = strconv.AppendInt(b, int64(game), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(ply), 10)
	b = append(b, `","ply":`...)
	b = strconv.AppendInt(b, int64(ply), 10)
	b = append(b, `,"point":"`...)
	b = append(b, p...)
	return append(b, `"}`...)
}

// parseMoveID reads "m<game>.<ply>" (the ids moveFrame gives moves).
func parseMoveID(id string) (game, ply int, ok bool) {
	g, p, found := strings.Cut(strings.TrimPrefix(id, "m"), ".")
	if !found || len(id) == 0 || id[0] != 'm' {
		return 0, 0, false
	}
	game, err1 := strconv.Atoi(g)
	ply, err2 := strconv.Atoi(p)
	return game, ply, err1 == nil && err2 == nil
}
