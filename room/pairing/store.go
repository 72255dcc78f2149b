package pairing

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Keys of the seek pool (see the package doc).
const (
	KeySeekPrefix = "gomoku:{seeks}:seek:"
	KeyPoolPrefix = "gomoku:{seeks}:pool:"
	KeyPools      = "gomoku:{seeks}:pools"
	KeyMatches    = "gomoku:{seeks}:matches"
	Channel       = "gomoku:{seeks}:paired"
)

// ErrUnavailable: Redis did not answer; whether a seek was stored is unknown.
var ErrUnavailable = errors.New("pairing: unavailable")

// ErrPending refuses a seek while the player's previous seek is matched and its room
// is being seated: the outcome of that match (seated or failed) comes first.
var ErrPending = protocol.NewError("pairing", protocol.CodeConflict, "your previous seek was just matched and its game is being set up: wait for it")

// Seeker is one side of a seek or a match.
type Seeker struct {
	ID     string    `json:"id"`
	Name   string    `json:"name"`
	Rating float64   `json:"rating"`
	Since  time.Time `json:"-"`
}

// Match is two seekers paired in Room (an id no room has yet: the node whose Seek or
// Sweep made the match creates the room, seats both and Settles the outcome).
type Match struct {
	Room  string
	Pool  string
	Black Seeker
	White Seeker
}

// Side returns the colour of player id in m ("" when id is not in m) and the opponent.
func (m Match) Side(id string) (color string, opponent Seeker) {
	switch id {
	case m.Black.ID:
		return "black", m.White
	case m.White.ID:
		return "white", m.Black
	}
	return "", Seeker{}
}

// Status is what became of a seek (End).
type Status string

// Seek statuses.
const (
	StatusOK        Status = "ok"        // still seeking (heartbeat renewed it)
	StatusMatched   Status = "matched"   // paired, its room being seated: the match comes with it
	StatusSeated    Status = "seated"    // the match's room is seated (Settle): the match comes with it
	StatusFailed    Status = "failed"    // the match could not be seated (Settle): the match comes with it
	StatusCancelled Status = "cancelled" // cancelled now
	StatusGone      Status = "gone"      // no such seek (expired, or cancelled before)
	StatusReplaced  Status = "replaced"  // the player seeks from another connection now

	// StatusFailing is a failure claimed but not yet published (Settle): its room is
	// being closed, then StatusFailed follows. Heartbeats and cancels see the match as
	// StatusMatched meanwhile, so nobody is told before the room is closed.
	StatusFailing Status = "failing"
)

// Store is the seek pool in Redis.
type Store struct {
	c     redis.UniversalClient
	rules Rules
	// TTL is how long a seek lives without a heartbeat; MatchTTL how long a match is
	// kept in the seekers' hashes for a node that missed its message.
	TTL, MatchTTL time.Duration
	// RecoverAfter is how long after it was made (or its seating started, Seating) a
	// match still unsettled is taken to be left by a node that died (Unsettled): any
	// node then settles it from its room's state. It must exceed a live node's seating
	// attempts and stay below MatchTTL, so that both seeks still hold the match.
	RecoverAfter time.Duration
	// NewRoom returns a fresh room id and a colour coin for each match.
	NewRoom func() (id string, blackFirst bool)
}

// NewStore returns the pool on c with rules; newRoom gives each match its room id and
// colour coin.
func NewStore(c redis.UniversalClient, rules Rules, newRoom func() (string, bool)) *Store {
	return &Store{c: c, rules: rules, TTL: 15 * time.Second, MatchTTL: 2 * time.Minute,
		RecoverAfter: 40 * time.Second, NewRoom: newRoom}
}

// Rules returns the store's pairing rules.
func (s *Store) Rules() Rules { return s.rules }

func fnum(f float64) string    { return strconv.FormatFloat(f, 'f', -1, 64) }
func ms(d time.Duration) int64 { return d.Milliseconds() }

// Seek stores me's seek in pool (replacing any seek of me) and pairs it at once with
// the closest compatible seeker; the match is nil when me waits. A match returned is
// this caller's to seat and Settle. nonce names the connection that owns the seek
// (Cancel and Heartbeats must give the same). While me's previous seek is matched and
// not yet settled nothing changes: ErrPending with that match.
func (s *Store) Seek(ctx context.Context, pool Pool, me Seeker, nonce string, now time.Time) (*Match, error) {
	room, black := s.NewRoom()
	coin := "0"
	if black {
		coin = "1"
	}
	name := pool.String()
	res, err := seekScript.Run(ctx, s.c, []string{KeySeekPrefix + me.ID, KeyPoolPrefix + name, KeyPools, KeyMatches},
		me.ID, name, fnum(me.Rating), me.Name, nonce, now.UnixMilli(), ms(s.TTL),
		fnum(s.rules.Initial), fnum(s.rules.PerSecond), fnum(s.rules.Max), room, coin,
		KeySeekPrefix, KeyPoolPrefix, ms(s.MatchTTL)).Text()
	if err != nil {
		return nil, fmt.Errorf("%w: seek: %w", ErrUnavailable, err)
	}
	if res == "" {
		return nil, nil
	}
	pending := strings.HasPrefix(res, "P")
	m, err := DecodeMatch(strings.TrimPrefix(res, "P"))
	if err == nil && pending {
		err = ErrPending
	}
	return &m, err
}

// Sweep pairs the waiting seekers whose ranges have widened enough, making at most
// max matches (the caller's to seat and Settle).
func (s *Store) Sweep(ctx context.Context, now time.Time, max int) ([]Match, error) {
	args := []any{now.UnixMilli(), fnum(s.rules.Initial), fnum(s.rules.PerSecond), fnum(s.rules.Max),
		KeySeekPrefix, KeyPoolPrefix, ms(s.MatchTTL)}
	for range max {
		room, black := s.NewRoom()
		coin := "0"
		if black {
			coin = "1"
		}
		args = append(args, room, coin)
	}
	res, err := sweepScript.Run(ctx, s.c, []string{KeyPools, KeyMatches}, args...).StringSlice()
	if err != nil {
		return nil, fmt.Errorf("%w: sweep: %w", ErrUnavailable, err)
	}
	out := make([]Match, 0, len(res))
	for _, r := range res {
		m, err := DecodeMatch(r)
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
	return out, nil
}

// Cancel deletes player's seek owned by nonce unless it is matched already (then
// the match comes back with StatusMatched while it is being seated, or with its
// outcome, StatusSeated or StatusFailed: too late to cancel).
func (s *Store) Cancel(ctx context.Context, player, nonce string) (Status, *Match, error) {
	res, err := cancelScript.Run(ctx, s.c, []string{KeySeekPrefix + player, KeyPools},
		player, nonce, KeyPoolPrefix).StringSlice()
	if err != nil {
		return "", nil, fmt.Errorf("%w: cancel: %w", ErrUnavailable, err)
	}
	if len(res) != 2 {
		return "", nil, fmt.Errorf("pairing: cancel: unexpected reply %q", res)
	}
	return decodeEnd(res[0], res[1])
}

// Owned names a seek: its player and the nonce of the connection that owns it.
type Owned struct{ Player, Nonce string }

// Beat is what a heartbeat learnt of one seek: StatusOK (renewed), StatusMatched,
// StatusSeated or StatusFailed with its Match, StatusGone or StatusReplaced.
type Beat struct {
	Status Status
	Match  *Match
}

// renewBatch bounds the seeks renewed by one script call, so that a node with very
// many seekers does not hold Redis in one long script.
const renewBatch = 1000

// Heartbeats renews a node's seeks, one script call per renewBatch of them (a node's
// heartbeat costs one round trip, not one per seeker), and reports what became of
// each: out[i] is seeks[i]'s. On an error out holds the batches done before it.
func (s *Store) Heartbeats(ctx context.Context, seeks []Owned) ([]Beat, error) {
	out := make([]Beat, 0, len(seeks))
	for len(seeks) > 0 {
		n := min(len(seeks), renewBatch)
		keys := make([]string, n)
		args := make([]any, 1, n+1)
		args[0] = ms(s.TTL)
		for i, o := range seeks[:n] {
			keys[i] = KeySeekPrefix + o.Player
			args = append(args, o.Nonce)
		}
		res, err := renewScript.Run(ctx, s.c, keys, args...).StringSlice()
		if err != nil {
			return out, fmt.Errorf("%w: renew: %w", ErrUnavailable, err)
		}
		if len(res) != 2*n {
			return out, fmt.Errorf("pairing: renew: unexpected reply of %d for %d seeks", len(res), n)
		}
		for i := 0; i < len(res); i += 2 {
			st, m, err := decodeEnd(res[i], res[i+1])
			if err != nil {
				return out, err
			}
			out = append(out, Beat{Status: st, Match: m})
		}
		seeks = seeks[n:]
	}
	return out, nil
}

// decodeEnd decodes a script's status and match.
func decodeEnd(status, match string) (Status, *Match, error) {
	st := Status(status)
	if match == "" {
		return st, nil, nil
	}
	m, err := DecodeMatch(match)
	if err != nil {
		return st, nil, err
	}
	return st, &m, nil
}

// Waiting returns the number of seekers waiting in pool.
func (s *Store) Waiting(ctx context.Context, pool Pool) (int64, error) {
	n, err := s.c.ZCard(ctx, KeyPoolPrefix+pool.String()).Result()
	if err != nil {
		return 0, fmt.Errorf("%w: waiting: %w", ErrUnavailable, err)
	}
	return n, nil
}

// Settle records outcome for match m, once, in both seek hashes (the heartbeats and
// cancels of any node read it there), and returns the outcome recorded, which may be
// an earlier one (the first wins):
//   - StatusSeated (both players sit in m's room) is recorded and published to every
//     node (Subscribe). When a side's seek no longer holds m (it ran out, its page was
//     told so) or a failure was claimed, it becomes StatusFailing instead.
//   - StatusFailing claims the failure without telling anyone: the caller closes the
//     room, then settles StatusFailed. Unless m is seated already, the reply is
//     StatusFailing, whoever claimed it.
//   - StatusFailed is recorded and published.
//
// A settled match (seated or failed) leaves the index of unsettled matches.
func (s *Store) Settle(ctx context.Context, m Match, outcome Status) (Status, error) {
	if outcome != StatusSeated && outcome != StatusFailing && outcome != StatusFailed {
		return "", fmt.Errorf("pairing: settle: bad outcome %q", outcome)
	}
	res, err := settleScript.Run(ctx, s.c, []string{KeySeekPrefix + m.Black.ID, KeySeekPrefix + m.White.ID, KeyMatches},
		m.Encode(), string(outcome), Channel).Text()
	if err != nil {
		return "", fmt.Errorf("%w: settle: %w", ErrUnavailable, err)
	}
	return Status(res), nil
}

// Seating tells recovery that m's seating starts now (it waited for its turn on its
// node): Unsettled leaves it alone until RecoverAfter from now. It reports false when m
// is settled already (recovered meanwhile): then there is nothing to seat.
func (s *Store) Seating(ctx context.Context, m Match, now time.Time) (bool, error) {
	n, err := seatingScript.Run(ctx, s.c, []string{KeyMatches}, now.UnixMilli(), m.Encode()).Int()
	if err != nil {
		return false, fmt.Errorf("%w: seating: %w", ErrUnavailable, err)
	}
	return n == 1, nil
}

// Unsettled returns up to max matches made RecoverAfter or longer before now that are
// not settled yet (a failure claimed counts as unsettled): their seating node died,
// or cannot reach Redis. A match that cannot be read is dropped from the index.
func (s *Store) Unsettled(ctx context.Context, now time.Time, max int) ([]Match, error) {
	res, err := s.c.ZRangeArgs(ctx, redis.ZRangeArgs{Key: KeyMatches, ByScore: true, Start: "-inf",
		Stop: strconv.FormatInt(now.Add(-s.RecoverAfter).UnixMilli(), 10), Count: int64(max)}).Result()
	if err != nil {
		return nil, fmt.Errorf("%w: unsettled: %w", ErrUnavailable, err)
	}
	out := make([]Match, 0, len(res))
	for _, r := range res {
		m, err := DecodeMatch(r)
		if err != nil {
			s.c.ZRem(ctx, KeyMatches, r)
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// Subscribe delivers every outcome settled from now on (by any node) to fn with its
// match, until ctx ends. It returns once the subscription is confirmed.
func (s *Store) Subscribe(ctx context.Context, fn func(Status, Match)) error {
	ps := s.c.Subscribe(ctx, Channel)
	if _, err := ps.Receive(ctx); err != nil {
		_ = ps.Close()
		return fmt.Errorf("%w: subscribe: %w", ErrUnavailable, err)
	}
	ch := ps.Channel()
	go func() {
		defer ps.Close()
		for {
			select {
			case <-ctx.Done():
				return
			case msg, ok := <-ch:
				if !ok {
					return
				}
				if st, m, err := decodeSettled(msg.Payload); err == nil {
					fn(st, m)
				}
			}
		}
	}()
	return nil
}
