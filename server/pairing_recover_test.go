package server

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/eventlog/redistest"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// stalledPairs seats a match's players as far as seated says (-1: the room is not even
// created) and then never returns: the node that made the match stops there, as one
// that died after or while seating, and never settles it.
type stalledPairs struct {
	*ManagerRooms
	seated  int
	release chan struct{}
	room    chan string
}

func (s *stalledPairs) SeatPair(ctx context.Context, id string, settings room.Settings, black, white Player) error {
	s.room <- id
	if s.seated >= 0 {
		r, err := s.M.Create(ctx, room.CreateRequest{ID: id, Settings: settings})
		if err != nil {
			return err
		}
		for _, p := range []struct {
			who   Player
			color string
		}{{black, "black"}, {white, "white"}}[:s.seated] {
			if _, err := r.Do(ctx, room.Command{Kind: room.CmdSit, By: room.Player{ID: p.who.ID, Name: p.who.Name}, Color: p.color}); err != nil {
				return err
			}
		}
	}
	<-s.release
	return errors.New("the node is gone")
}

// A match whose node stops after (or while) seating it and never settles it is
// settled by another node once it is RecoverAfter old, from its room as stored: both
// players seated → both told paired and the game is on; otherwise both told
// match_failed and the room closed, a room nobody sat in included (it leaves the
// unfinished rooms). miniredis, and with GOMOKU_INTEGRATION=1 a real redis-server and
// a Cluster.
func TestQuickPairingRecoversAfterNodeStops(t *testing.T) {
	all := backends(t)
	if redistest.Enabled() {
		for _, tt := range redistest.Topologies() {
			if tt.Name == "cluster" {
				all[tt.Name] = func(t *testing.T) redis.UniversalClient { return tt.Client(t) }
			}
		}
	}
	cases := []struct {
		name   string
		seated int
		want   string
	}{
		{"both seated: paired", 2, protocol.TypePaired},
		{"black seated: failed, the game aborted", 1, protocol.TypeSeekEnded},
		{"nobody seated: failed, the room closed", 0, protocol.TypeSeekEnded},
		{"no room: failed", -1, protocol.TypeSeekEnded},
	}
	for name, open := range all {
		for _, c := range cases {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				rc := open(t)
				stalled := &stalledPairs{seated: c.seated, release: make(chan struct{}), room: make(chan string, 1)}
				never := func(s *pairing.Store) { s.RecoverAfter = time.Hour }
				soon := func(s *pairing.Store) { s.RecoverAfter = time.Second }
				a, ma := tunedPairingNode(t, rc, never, func(m *ManagerRooms) Rooms { stalled.ManagerRooms = m; return stalled })
				b, mb := tunedPairingNode(t, rc, soon)
				t.Cleanup(func() { close(stalled.release) }) // before the nodes shut down
				ps, ls := seekers(t, rc, 2, b, a)            // the second seeker, on a, makes the match
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				_, err := ls[0].Seek(ctx, "s", "freestyle", "3+2", false)
				require.NoError(t, err)
				_, err = ls[1].Seek(ctx, "s", "freestyle", "3+2", false)
				require.NoError(t, err)
				id := <-stalled.room
				told := map[string]string{}
				for i, l := range ls {
					m, err := l.NextOf(ctx, protocol.TypePaired, protocol.TypeSeekEnded)
					require.NoError(t, err)
					require.Equal(t, c.want, m.Type)
					if m.Type == protocol.TypeSeekEnded {
						require.Equal(t, protocol.SeekMatchFailed, m.Reason)
						continue
					}
					require.Equal(t, id, m.RoomID)
					told[ps[i].ID] = m.RoomID + "/" + m.Color
				}
				requireSeatedAsTold(t, rc, told, ma, mb)
				_, err = rc.ZScore(ctx, eventlog.KeyRoomsActive, id).Result()
				if c.want == protocol.TypePaired {
					require.NoError(t, err, "a paired room is unfinished")
				} else {
					require.ErrorIs(t, err, redis.Nil, "a failed match's room is not among the unfinished ones")
				}
				left, err := pairing.NewStore(rc, pairing.DefaultRules, newPairedRoom).Unsettled(ctx, time.Now().Add(time.Hour), 10)
				require.NoError(t, err)
				require.Empty(t, left, "settled")
			})
		}
	}
}

// The pool recovers a match only after a live node's seating attempts would have
// ended (counted from the start of a late seating), and before the matched seeks run
// out, so that both still hold the match when it is recovered.
func TestRecoverAfterOutlastsSeating(t *testing.T) {
	s := pairing.NewStore(nil, pairing.DefaultRules, newPairedRoom)
	seating := seatLate + seatAttempts*commandTimeout + 3*seatBackoff
	require.Greater(t, s.RecoverAfter, seating)
	require.Less(t, s.RecoverAfter+heartbeatEvery, s.MatchTTL)
}
