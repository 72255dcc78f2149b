package room

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomCommand returns a plausible (often refused) command for s.
func randomCommand(rng *rand.Rand, s State) Command {
	who := []Player{alice, bob, carol, {}}[rng.IntN(4)]
	if rng.IntN(3) > 0 { // mostly the player to move
		if c := s.ToMove(); c != 0 {
			if p := s.Seat(c).Player; p != nil {
				who = *p
			}
		}
	}
	kinds := []CommandKind{CmdLeave, CmdResign, CmdDrawOffer, CmdDrawAccept, CmdDrawDecline,
		CmdTakebackRequest, CmdTakebackAccept, CmdTakebackDecline, CmdRematch, CmdAbort,
		CmdClaimVictory, CmdFlag, CmdChat, CmdTimeout, CmdSit, CmdMove, CmdChoose}
	c := Command{Kind: kinds[rng.IntN(len(kinds))], By: who}
	c.Choice = []string{ChoiceBlack, ChoiceWhite, ChoicePlace2, "red"}[rng.IntN(4)]
	if st := s.Opening(); (st == StepChoose || st == StepChoose2) && rng.IntN(4) > 0 {
		c.Kind = CmdChoose
		return c
	}
	switch s.Phase() {
	case PhaseWaiting:
		if rng.IntN(3) > 0 {
			c.Kind = CmdSit
		}
	case PhasePlaying:
		if rng.IntN(10) < 8 {
			c.Kind = CmdMove
		}
	case PhaseOver:
		if rng.IntN(2) == 0 {
			c.Kind = CmdRematch
			c.By = []Player{alice, bob}[rng.IntN(2)]
		}
		if s.Settings().Rated && rng.IntN(3) == 0 {
			// The ledger's report, now and then for an earlier game or twice.
			ch := RatingChange{Pool: "x", Black: RatingDelta{1500, 1500 + rng.IntN(100), true}}
			return Command{Kind: CmdRating, Game: max(1, s.Game()-rng.IntN(2)), Rating: &ch}
		}
	}
	if rng.IntN(100) == 0 {
		c.Kind = CmdAbandon
	}
	if o := s.DrawOffer(); o != 0 && rng.IntN(2) == 0 {
		c.Kind = []CommandKind{CmdDrawAccept, CmdDrawDecline, CmdDrawDecline}[rng.IntN(3)]
		if p := s.Seat(o.Opponent()).Player; p != nil {
			c.By = *p
		}
		return c
	}
	if o := s.TakebackRequest(); o != 0 && rng.IntN(2) == 0 {
		c.Kind = []CommandKind{CmdTakebackAccept, CmdTakebackDecline}[rng.IntN(2)]
		if p := s.Seat(o.Opponent()).Player; p != nil {
			c.By = *p
		}
		return c
	}
	if (c.Kind == CmdLeave || c.Kind == CmdResign || c.Kind == CmdAbort) && rng.IntN(3) > 0 {
		c.Kind = CmdMove
	}
	if c.Kind == CmdSit && c.By.ID == "" {
		c.By = []Player{alice, bob, carol}[rng.IntN(3)]
	}
	if s.Settings().Rated && c.By.ID != "" {
		c.By.Account = true
	}
	switch c.Kind {
	case CmdSit:
		c.Color = []string{"black", "white"}[rng.IntN(2)]
	case CmdMove:
		c.Ply = s.Ply()
		if rng.IntN(10) == 0 {
			c.Ply = rng.IntN(s.Ply() + 2)
		}
		// Cluster moves so that games end by five now and then.
		c.Point = string(rune('f'+rng.IntN(4))) + string(rune('5'+rng.IntN(4)))
	case CmdChat:
		c.Text = "hi"
	case CmdClaimVictory:
		c.GoneSince, c.Grace = t0, time.Duration(rng.IntN(3))*time.Minute
	}
	return c
}

// TestReplayEqualsLive drives random command sequences and checks after every accepted
// command that the JSON-encoded event log replays to exactly the live state.
func TestReplayEqualsLive(t *testing.T) {
	total := 0
	kindsSeen := map[EventKind]int{}
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := created(t, func(set *Settings) {
			set.Rule = []string{"freestyle", "standard", "renju"}[rng.IntN(3)]
			set.Takebacks = rng.IntN(2) == 0
			set.Opening = []string{OpeningNone, OpeningSwap, OpeningSwap2}[rng.IntN(3)]
			switch rng.IntN(3) {
			case 1:
				set.Time = TimeControl{BaseMS: 30_000, IncrementMS: 1_000}
			case 2:
				set.Time = TimeControl{PerMoveMS: 15_000}
			}
			set.Rated = set.Time.Enabled() && rng.IntN(2) == 0
		})
		_, first, _ := NewState("r1", s.Settings(), t0)
		log := []Event{first}
		now := t0
		accepted := 0
		for range 400 {
			now = now.Add(time.Duration(rng.IntN(8000)) * time.Millisecond)
			cmd := randomCommand(rng, s)
			ns, evs, err := Apply(s, cmd, now)
			if err != nil {
				require.Equal(t, s, ns, "seed %d: refused %s changed the state", seed, cmd.Kind)
				require.NotEmpty(t, protocol.Code(err))
				continue
			}
			accepted++
			for _, e := range evs {
				b, err := EncodeEvent(e)
				require.NoError(t, err)
				d, err := DecodeEvent(b)
				require.NoError(t, err, "%s", b)
				log = append(log, d)
				kindsSeen[d.Kind]++
			}
			s = ns
			if accepted%4 != 0 {
				continue // the full replay below runs on every 4th accepted command
			}
			replayed, err := Replay(log)
			require.NoError(t, err, "seed %d", seed)
			require.Equal(t, s, replayed, "seed %d after %s", seed, cmd.Kind)
			a, _ := json.Marshal(s.Snapshot(now))
			b, _ := json.Marshal(replayed.Snapshot(now))
			require.JSONEq(t, string(a), string(b))
		}
		total += accepted
		for i, e := range log {
			require.Equal(t, uint64(i+1), e.Seq)
		}
	}
	assert.Greater(t, total, 2000)
	for k := range knownEvent {
		if k != EvCreated { // the first event is made by NewRoom
			assert.Positive(t, kindsSeen[k], "event kind %s never produced", k)
		}
	}
	t.Logf("accepted %d commands; events by kind %v", total, kindsSeen)
}

func TestReplayRejectsBrokenLogs(t *testing.T) {
	s := play(t, seated(t, nil), "h8", "i9")
	_, first, _ := NewState("r1", s.Settings(), t0)
	_, err := Replay(nil)
	assert.Error(t, err)
	_, err = Replay([]Event{{Seq: 1, Kind: EvMove}})
	assert.Error(t, err)
	_, err = Replay([]Event{first, {Seq: 3, Kind: EvChat, Game: 1}})
	assert.Error(t, err, "gap in seq")
	_, err = Replay([]Event{first, {Seq: 2, Kind: EvMove, Game: 1, Point: "h8"}})
	assert.Error(t, err, "move before start")
}
