package crashtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/server/wstest"
	"github.com/stretchr/testify/require"
)

// ackRec is one acknowledged move.
type ackRec struct {
	Ply       int
	Point     string
	Seq       uint64
	Duplicate bool
}

// Ledger collects every acknowledged move per room (the evidence for invariant 1 of the README).
type Ledger struct {
	mu    sync.Mutex
	acks  map[string][]ackRec
	notes []string
}

func newLedger() *Ledger { return &Ledger{acks: map[string][]ackRec{}} }

func (l *Ledger) add(roomID string, a ackRec) {
	l.mu.Lock()
	l.acks[roomID] = append(l.acks[roomID], a)
	l.mu.Unlock()
}

func (l *Ledger) note(format string, args ...any) {
	l.mu.Lock()
	l.notes = append(l.notes, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *Ledger) get(roomID string) []ackRec {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ackRec(nil), l.acks[roomID]...)
}

// Strategy picks the point to play in view v ("" for none: wait for the next event).
type Strategy func(v wstest.View) string

// Seat drives one player's seat: it plays whenever its view says it is its turn,
// reconnects (with its token and last seq) whenever the connection drops, and resends
// an unanswered move with the same ply and id.
type Seat struct {
	C        *wstest.Client
	Color    string
	Next     Strategy
	Think    func() time.Duration // pause before each move (nil: none)
	ResignAt int                  // resign instead of moving at this ply (0: never)
	Ledger   *Ledger
	// Retry, when set, says whether an error code is transient (the move is resent).
	Retry func(code string) bool

	// Sending, when set, is told (without blocking) just before each move frame is sent,
	// so that a killer can crash the server while the move is in flight.
	Sending chan<- string

	Unavailable int // moves refused with unavailable
}

func transient(code string) bool {
	return code == "unavailable" || code == "timeout" || code == "conflict"
}

// ensure reconnects until the connection is up.
func ensure(ctx context.Context, c *wstest.Client) error {
	if c.View().Alive {
		return nil
	}
	return c.Reconnect(ctx)
}

// Run plays until the game is over or ctx ends.
func (s *Seat) Run(ctx context.Context) error {
	retry := s.Retry
	if retry == nil {
		retry = transient
	}
	for {
		if err := ensure(ctx, s.C); err != nil {
			return err
		}
		v, err := s.C.Wait(ctx, func(v wstest.View) bool {
			return v.Over() || (v.Phase == "playing" && v.ToMove() == s.Color)
		})
		if errors.Is(err, wstest.ErrDisconnected) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s waiting for its turn (view %d moves, phase %q): %w", s.Color, len(v.Moves), v.Phase, err)
		}
		if v.Over() {
			return nil
		}
		if s.Think != nil {
			select {
			case <-time.After(s.Think()):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		ply := len(v.Moves)
		if s.ResignAt > 0 && ply >= s.ResignAt {
			if err := s.resign(ctx, ply); err != nil {
				return err
			}
			continue
		}
		point := s.Next(v)
		if point == "" { // nothing to play here (e.g. the game_over event is on its way)
			_, err := s.C.Wait(ctx, func(w wstest.View) bool { return w.Over() || w.LastSeq != v.LastSeq || !w.Alive })
			if err != nil && !errors.Is(err, wstest.ErrDisconnected) {
				return fmt.Errorf("%s: no move at ply %d and the game did not end: %w", s.Color, ply, err)
			}
			continue
		}
		id := fmt.Sprintf("%s-%d", s.Color, ply)
		for {
			if s.Sending != nil {
				select {
				case s.Sending <- id:
				default:
				}
			}
			r, err := s.C.Move(ctx, id, ply, point)
			if errors.Is(err, wstest.ErrDisconnected) {
				if err := s.C.Reconnect(ctx); err != nil {
					return err
				}
				continue // resend: same ply, same point, same id
			}
			if err != nil {
				return fmt.Errorf("%s move %s at ply %d: %w", s.Color, point, ply, err)
			}
			if r.Type == "ack" {
				s.Ledger.add(s.C.Room, ackRec{Ply: ply, Point: point, Seq: r.Seq, Duplicate: r.Duplicate})
				// The move's event may arrive after the ack: wait for it.
				if _, err := s.C.Wait(ctx, func(v wstest.View) bool { return v.Over() || len(v.Moves) > ply }); err != nil && !errors.Is(err, wstest.ErrDisconnected) {
					return fmt.Errorf("%s: event of acked move %s at ply %d: %w", s.Color, point, ply, err)
				}
				break
			}
			if r.Code == "unavailable" {
				s.Unavailable++
			}
			if r.Code == "game_over" {
				break
			}
			if !retry(r.Code) {
				return fmt.Errorf("%s move %s at ply %d refused: %s %s", s.Color, point, ply, r.Code, r.Message)
			}
			select {
			case <-time.After(100 * time.Millisecond):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
}

func (s *Seat) resign(ctx context.Context, ply int) error {
	id := fmt.Sprintf("%s-resign-%d", s.Color, ply)
	for {
		r, err := s.C.Do(ctx, map[string]any{"type": "resign", "id": id})
		if errors.Is(err, wstest.ErrDisconnected) {
			if err := s.C.Reconnect(ctx); err != nil {
				return err
			}
			if s.C.View().Over() {
				return nil
			}
			continue
		}
		if err != nil {
			return err
		}
		if r.Type == "ack" || r.Code == "game_over" {
			_, err := s.C.Wait(ctx, wstest.View.Over)
			if errors.Is(err, wstest.ErrDisconnected) {
				return nil // the Run loop reconnects and sees the end
			}
			return err
		}
		if !transient(r.Code) {
			return fmt.Errorf("%s resign refused: %s %s", s.Color, r.Code, r.Message)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Follow keeps a watcher connected until its view shows the game over.
func Follow(ctx context.Context, c *wstest.Client) error {
	for {
		if err := ensure(ctx, c); err != nil {
			return err
		}
		_, err := c.Wait(ctx, wstest.View.Over)
		if err == nil {
			return nil
		}
		if !errors.Is(err, wstest.ErrDisconnected) {
			return err
		}
	}
}

// point renders 0-based (x, y) in renju notation.
func point(x, y int) string { return fmt.Sprintf("%c%d", 'a'+x, y+1) }

// scriptedGame returns a move list for a human-vs-human freestyle 15x15 game of
// filler+9 moves that black wins with a five on its last move: filler stones on the
// (even, even) grid (no two adjacent, so no line forms), then black b2..f2 against
// white b4..e4. filler must be even and at most 64.
func scriptedGame(rng *rand.Rand, filler int) []string {
	var grid []string
	for x := 0; x < 15; x += 2 {
		for y := 0; y < 15; y += 2 {
			grid = append(grid, point(x, y))
		}
	}
	rng.Shuffle(len(grid), func(i, j int) { grid[i], grid[j] = grid[j], grid[i] })
	moves := append([]string(nil), grid[:filler]...)
	for i := 1; i <= 5; i++ {
		moves = append(moves, point(i, 1))
		if i < 5 {
			moves = append(moves, point(i, 3))
		}
	}
	return moves
}

// scripted plays moves[ply].
func scripted(moves []string) Strategy {
	return func(v wstest.View) string {
		if len(v.Moves) >= len(moves) {
			return ""
		}
		return moves[len(v.Moves)]
	}
}

// randomNear plays a random empty point within radius 3 of the centre of a 15x15 board,
// else anywhere empty (for the human side of an AI game). rng must not be shared
// between goroutines.
func randomNear(rng *rand.Rand) Strategy {
	return func(v wstest.View) string {
		used := map[string]bool{}
		for _, m := range v.Moves {
			used[m] = true
		}
		var near, all []string
		for x := 0; x < 15; x++ {
			for y := 0; y < 15; y++ {
				p := point(x, y)
				if used[p] {
					continue
				}
				all = append(all, p)
				if x >= 4 && x <= 10 && y >= 4 && y <= 10 {
					near = append(near, p)
				}
			}
		}
		if len(near) > 0 {
			return near[rng.Intn(len(near))]
		}
		return all[rng.Intn(len(all))]
	}
}

// blocker plays a random empty neighbour of the opponent's last stone (so that an AI
// opponent needs longer to win), else randomNear.
func blocker(rng *rand.Rand) Strategy {
	fallback := randomNear(rng)
	return func(v wstest.View) string {
		if len(v.Moves) == 0 {
			return fallback(v)
		}
		used := map[string]bool{}
		for _, m := range v.Moves {
			used[m] = true
		}
		last := v.Moves[len(v.Moves)-1]
		lx, ly := int(last[0]-'a'), 0
		fmt.Sscanf(last[1:], "%d", &ly)
		ly--
		var cand []string
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				x, y := lx+dx, ly+dy
				if x >= 0 && x < 15 && y >= 0 && y < 15 && !used[point(x, y)] {
					cand = append(cand, point(x, y))
				}
			}
		}
		if len(cand) == 0 {
			return fallback(v)
		}
		return cand[rng.Intn(len(cand))]
	}
}

// think returns a seeded random pause in [lo, hi).
func think(seed int64, lo, hi time.Duration) func() time.Duration {
	rng := rand.New(rand.NewSource(seed))
	var mu sync.Mutex
	return func() time.Duration {
		mu.Lock()
		defer mu.Unlock()
		return lo + time.Duration(rng.Int63n(int64(hi-lo)))
	}
}

// verifyRoom checks a finished room against the ledger: the stored snapshot holds
// every acknowledged move at its ply, no point twice; a fresh reader that joins with
// last_seq=1 receives events 2..seq contiguous, whose moves are exactly the snapshot's
// moves, each acked move at the seq its ack named; exactly one game_over, last.
func verifyRoom(t *testing.T, ctx context.Context, base, roomID string, acks []ackRec, wantOver bool) room.Snapshot {
	t.Helper()
	snap, err := GetRoom(ctx, base, roomID)
	require.NoError(t, err, "GET /api/rooms/%s", roomID)
	if wantOver {
		require.Equal(t, room.PhaseOver, snap.Phase, "room %s not over: %+v", roomID, snap)
	}
	seen := map[string]int{}
	for i, m := range snap.Moves {
		if j, dup := seen[m]; dup {
			t.Errorf("room %s: point %s stored twice (plies %d and %d)", roomID, m, j, i)
		}
		seen[m] = i
	}
	for _, a := range acks {
		if a.Ply >= len(snap.Moves) {
			t.Errorf("room %s: acked move %s at ply %d (seq %d) LOST: only %d moves stored", roomID, a.Point, a.Ply, a.Seq, len(snap.Moves))
			continue
		}
		if snap.Moves[a.Ply] != a.Point {
			t.Errorf("room %s: acked move %s at ply %d (seq %d) LOST: stored %s there", roomID, a.Point, a.Ply, a.Seq, snap.Moves[a.Ply])
		}
	}

	r := wstest.NewClient(base, roomID, "")
	r.FromSeq(1)
	require.NoError(t, r.Reconnect(ctx))
	defer r.Close()
	_, err = r.Wait(ctx, func(v wstest.View) bool { return v.LastSeq >= snap.Seq })
	require.NoError(t, err, "room %s: reader did not reach seq %d", roomID, snap.Seq)
	evs := r.Events()
	if len(evs) == 0 || evs[0].Seq != 2 {
		t.Errorf("room %s: replay from last_seq=1 should start at seq 2; got %d events (log %v)", roomID, len(evs), r.Log())
	}
	var moves []string
	moveSeq := map[int]uint64{}
	overAt := uint64(0)
	overs := 0
	for i, e := range evs {
		if i > 0 && e.Seq != evs[i-1].Seq+1 {
			t.Errorf("room %s: replay seq %d after %d", roomID, e.Seq, evs[i-1].Seq)
		}
		switch e.Kind {
		case "started", "rematch":
			moves = append(moves[:0], e.OpeningStones...) // the stones an AI show starts from
		case "move":
			if e.Ply != len(moves) {
				t.Errorf("room %s: move event seq %d at ply %d, expected ply %d (applied twice or out of order)", roomID, e.Seq, e.Ply, len(moves))
			}
			moveSeq[e.Ply] = e.Seq
			moves = append(moves, e.Point)
		case "game_over":
			overs++
			overAt = e.Seq
			if i != len(evs)-1 {
				t.Errorf("room %s: game_over at seq %d is not the last event", roomID, e.Seq)
			}
		}
	}
	if wantOver && overs != 1 {
		t.Errorf("room %s: %d game_over events", roomID, overs)
	}
	if !slices.Equal(moves, snap.Moves) {
		t.Errorf("room %s: event-stream moves %v != snapshot moves %v", roomID, moves, snap.Moves)
	}
	for _, a := range acks {
		// The ack names the seq of the command's last event: the game_over right after a
		// winning move.
		if s, ok := moveSeq[a.Ply]; ok && s != a.Seq && !(a.Seq == s+1 && overAt == s+1) {
			t.Errorf("room %s: ack of %s at ply %d named seq %d but the move is stored at seq %d", roomID, a.Point, a.Ply, a.Seq, s)
		}
	}
	for _, p := range r.Problems() {
		t.Errorf("room %s reader: %s", roomID, p)
	}
	return snap
}

// setup helpers

func mustPlayer(t *testing.T, ctx context.Context, base, name string) Player {
	t.Helper()
	p, err := NewPlayer(ctx, base, name)
	require.NoError(t, err, "register %s", name)
	return p
}

func mustRoom(t *testing.T, ctx context.Context, base, token string, body map[string]any) string {
	t.Helper()
	s, err := CreateRoom(ctx, base, token, body)
	require.NoError(t, err, "create room %v", body)
	return s.ID
}

// sit connects c and takes the colour's seat.
func sit(t *testing.T, ctx context.Context, c *wstest.Client, color string) {
	t.Helper()
	require.NoError(t, c.Reconnect(ctx))
	r, err := c.Do(ctx, map[string]any{"type": "sit", "id": "sit", "color": color})
	require.NoError(t, err)
	require.Equal(t, "ack", r.Type, "sit: %+v", r)
}
