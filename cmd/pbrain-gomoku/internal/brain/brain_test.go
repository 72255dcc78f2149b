package brain

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
)

// session runs a brain on pipes and exchanges lines with it.
type session struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func newSession(t *testing.T) *session {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &session{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	cfg := Config{
		Name: "test", Version: "1", Author: "a", Country: "b",
		NewPlayer: func(int64) engine.Player { return baseline.New(baseline.Options{Depth: 2, MaxCandidates: 10}) },
	}
	go func() {
		s.done <- Run(context.Background(), inR, outW, cfg)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return s
}

func (s *session) send(line string) { _, _ = io.WriteString(s.in, line+"\r\n") }

// reply returns the next line that is not a MESSAGE.
func (s *session) reply() string {
	for s.out.Scan() {
		if l := s.out.Text(); !strings.HasPrefix(l, "MESSAGE") {
			return l
		}
	}
	return "<EOF>"
}

func TestSession(t *testing.T) {
	type step struct {
		send string
		want string // "" means no reply expected; "MOVE" any move
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"before start", []step{{"TURN 7,7", "ERROR no game started (send START first)"}, {"ABOUT", `name="test", version="1", author="a", country="b"`}}},
		{"sizes", []step{{"START 14", "ERROR unsupported size 14 (15 to 20)"}, {"START 20", "OK"}, {"RECTSTART 20,19", "ERROR only square boards 15x15 to 20x20 are supported"}, {"RECTSTART 16,16", "OK"}}},
		{"begin and turns", []step{{"START 15", "OK"}, {"INFO timeout_turn 200", ""}, {"BEGIN", "7,7"}, {"TURN 7,7", "ERROR TURN 7,7: engine: point is occupied"}, {"TURN 15,3", "ERROR TURN 15,3: engine: point is off the board"}, {"TURN 0,0", "MOVE"}}},
		{"garbage", []step{{"hello world", `UNKNOWN command "HELLO"`}, {"TURN a,b", "ERROR TURN: gomocup: malformed arguments"}, {"\x00\x01", `UNKNOWN command "\x00\x01"`}}},
		{"board", []step{{"START 15", "OK"}, {"BOARD", ""}, {"7,7,2", ""}, {"8,8,1", ""}, {"7,8,2", ""}, {"DONE", "MOVE"}}},
		{"board bad counts", []step{{"START 15", "OK"}, {"BOARD", ""}, {"7,7,1", ""}, {"8,8,1", ""}, {"DONE", "ERROR BOARD: brain: stone counts do not fit a game where it is my turn"}}},
		{"board continuous", []step{{"START 15", "OK"}, {"BOARD", ""}, {"7,7,3", ""}, {"DONE", "ERROR BOARD: brain: continuous game (field 3) is not supported"}}},
		{"board duplicate", []step{{"START 15", "OK"}, {"BOARD", ""}, {"7,7,2", ""}, {"7,7,1", ""}, {"1,1,2", ""}, {"DONE", "ERROR BOARD: h8: brain: two stones on one point"}}},
		{"board interrupted", []step{{"START 15", "OK"}, {"BOARD", ""}, {"BEGIN", "ERROR BOARD block interrupted by BEGIN"}, {"", "7,7"}}},
		{"takeback", []step{{"START 15", "OK"}, {"BEGIN", "7,7"}, {"TAKEBACK 7,7", "OK"}, {"TAKEBACK 7,7", "ERROR TAKEBACK: brain: no stone there"}, {"BEGIN", "7,7"}}},
		{"restart", []step{{"RESTART", "ERROR no game started"}, {"START 15", "OK"}, {"BEGIN", "7,7"}, {"RESTART", "OK"}, {"BEGIN", "7,7"}}},
		{"renju rule", []step{{"START 15", "OK"}, {"INFO rule 4", ""}, {"INFO rule 2", ""}, {"ABOUT", `name="test", version="1", author="a", country="b"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSession(t)
			for _, st := range tt.steps {
				if st.send != "" {
					s.send(st.send)
				}
				switch st.want {
				case "":
					continue
				case "MOVE":
					got := s.reply()
					assert.Regexp(t, `^\d+,\d+$`, got, "after %q", st.send)
				default:
					assert.Equal(t, st.want, s.reply(), "after %q", st.send)
				}
			}
			s.send("END")
			select {
			case err := <-s.done:
				assert.NoError(t, err)
			case <-time.After(5 * time.Second):
				t.Fatal("brain did not stop on END")
			}
		})
	}
}

func TestLimits(t *testing.T) {
	const ms = time.Millisecond
	b := &Brain{cfg: Config{Margin: 50 * ms}, size: 15, turn: time.Second, left: -1}
	b.board, _ = engine.NewBoard(15, engine.Freestyle)
	l, deadline := b.limits()
	assert.Equal(t, engine.Limits{Time: 900 * ms}, l, "timeout_turn less the margin and 5%")
	assert.Equal(t, 900*ms, deadline)

	b.left = 2 * time.Second // 2 s for the rest of the game: the engine plans with the clock
	l, deadline = b.limits()
	require.NotNil(t, l.Clock)
	assert.Equal(t, 2*time.Second-50*ms-100*ms, l.Clock.Left)
	assert.Equal(t, 37, l.Clock.MovesToGo)
	assert.Equal(t, l.Clock.Left/4, deadline, "never past the engine's hard limit, a quarter of the clock")

	b.left = 0
	_, deadline = b.limits()
	assert.Equal(t, minThink, deadline)
	b.turn, b.left = 0, -1
	l, _ = b.limits()
	assert.Less(t, l.Time, 100*ms, "timeout_turn 0: as fast as possible")

	b.cfg.Nodes = 30000
	l, _ = b.limits()
	assert.Equal(t, uint64(30000), l.Nodes, "the node cap goes with every search")
}

func TestBoardOrderFallback(t *testing.T) {
	// Renju: the stones in the order given would make black's third stone a forbidden
	// double-three; another order is legal.
	b := &Brain{size: 15, rule: engine.Renju}
	// black h8 i9 j10(?) ... use a simple legal set: own = white (opponent has one more).
	b.boardStones = [][3]int{{7, 7, 2}, {0, 0, 1}, {8, 7, 2}, {0, 14, 1}, {9, 7, 2}}
	require.NoError(t, b.setBoard())
	assert.Equal(t, 5, b.board.Ply())
	assert.Equal(t, engine.White, b.board.ToMove())
}
