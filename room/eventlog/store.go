package eventlog

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRetention is how long a finished room is kept.
const DefaultRetention = 30 * 24 * time.Hour

// MaxBatch bounds the events, and the fields, of one Append (Lua stack limit).
const MaxBatch = 1000

// Store is the Redis persistence of rooms, lobby indexes and leases. It knows
// nothing about games: events and snapshot fields are opaque. A Store is safe
// for concurrent use.
type Store struct {
	c             redis.UniversalClient
	retention     time.Duration
	now           func() time.Time
	lobbyInScript bool
	sharded       bool
	log           *slog.Logger
	pipelines     int
	batch         *batcher
}

// Option configures a Store.
type Option func(*Store)

// WithRetention sets how long finished rooms are kept (default DefaultRetention).
func WithRetention(d time.Duration) Option { return func(s *Store) { s.retention = d } }

// WithClock sets the clock used for lobby scores when IndexUpdate.At is zero.
func WithClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// WithLobbyInScript chooses whether lobby sorted sets are updated inside the
// append script (atomic with the events; needs every key on one node, so it is
// the default except on a *redis.ClusterClient) or by a pipelined call right
// after it (Cluster-safe; the index may lag the room by one round trip, or miss
// an update if Redis fails in between; see the package doc).
func WithLobbyInScript(on bool) Option { return func(s *Store) { s.lobbyInScript = on } }

// WithShardedPubSub chooses SPUBLISH/SSUBSCRIBE (Redis >= 7; default on a
// *redis.ClusterClient) or PUBLISH/SUBSCRIBE (default otherwise; miniredis has
// only these).
func WithShardedPubSub(on bool) Option { return func(s *Store) { s.sharded = on } }

// WithLogger sets the logger for problems that do not fail a call (a lobby
// index update lost after a successful append). Default slog.Default().
func WithLogger(l *slog.Logger) Option { return func(s *Store) { s.log = l } }

// WithAppendPipelines sets how many pipelines of append scripts may be in flight at
// once (0: DefaultAppendPipelines). Appends of different rooms that arrive while
// they are busy are sent together in the next pipeline (group commit): one round trip
// for many moves under load, none added when idle. A negative n turns group commit
// off: every append is its own round trip (the yardstick before group commit).
func WithAppendPipelines(n int) Option { return func(s *Store) { s.pipelines = n } }

// New returns a Store over c.
func New(c redis.UniversalClient, opts ...Option) *Store {
	_, cluster := c.(*redis.ClusterClient)
	s := &Store{c: c, retention: DefaultRetention, now: time.Now, lobbyInScript: !cluster, sharded: cluster, log: slog.Default()}
	for _, o := range opts {
		o(s)
	}
	s.batch = newBatcher(c, s.pipelines)
	return s
}

// Client returns the underlying client.
func (s *Store) Client() redis.UniversalClient { return s.c }

// Retention returns the retention period of finished rooms.
func (s *Store) Retention() time.Duration { return s.retention }

// IndexUpdate changes a room's lobby membership together with an append.
// Adding to IndexFinished sets the retention TTL on the room's keys (and
// prunes finished entries older than the retention) and removes the room from
// IndexActive; adding to IndexLive or IndexOpen, or removing from
// IndexFinished, removes any TTL (a rematch revives a finished room) and
// (re-)adds it to IndexActive. Create adds the
// room to IndexActive unless it adds it to IndexFinished. The lobby sets are
// the caller's to choose (e.g. private rooms in none of them); IndexActive
// always has every unfinished room. The zero value changes nothing.
type IndexUpdate struct {
	Add    []Index   // ZADD the room with score At (ms)
	Remove []Index   // ZREM the room
	At     time.Time // last activity; zero means the store clock's now
}

// Touch returns an update that moves the room to the given indexes (adding it
// to them with score at) and removes it from all others.
func Touch(at time.Time, in ...Index) IndexUpdate {
	u := IndexUpdate{At: at}
	for _, i := range []Index{IndexLive, IndexOpen, IndexFinished} {
		found := false
		for _, j := range in {
			found = found || i == j
		}
		if found {
			u.Add = append(u.Add, i)
		} else {
			u.Remove = append(u.Remove, i)
		}
	}
	return u
}

// FinishUpdate is Touch(at, IndexFinished): the room leaves live/open, enters
// finished, and its keys get the retention TTL.
func FinishUpdate(at time.Time) IndexUpdate { return Touch(at, IndexFinished) }

type lobbyOp struct {
	idx   Index
	op    string
	score string
}

func (s *Store) lobbyOps(u IndexUpdate, create bool) (ops []lobbyOp, expire string, err error) {
	at := u.At
	if at.IsZero() {
		at = s.now()
	}
	ms := strconv.FormatInt(at.UnixMilli(), 10)
	for _, list := range [][]Index{u.Remove, u.Add} {
		for _, i := range list {
			if i.Key() == "" || i == IndexActive {
				return nil, "", fmt.Errorf("%w: index %q cannot be updated", ErrBadRequest, i)
			}
		}
	}
	active := create
	for _, i := range u.Remove {
		ops = append(ops, lobbyOp{i, "-", ms})
		if i == IndexFinished { // no longer finished: live again
			active, expire = true, "0"
		}
	}
	for _, i := range u.Add {
		ops = append(ops, lobbyOp{i, "+", ms})
		switch i {
		case IndexFinished:
			expire = strconv.FormatInt(s.retention.Milliseconds(), 10)
			cut := strconv.FormatInt(at.Add(-s.retention).UnixMilli(), 10)
			ops = append(ops, lobbyOp{IndexFinished, "<", cut})
		case IndexLive, IndexOpen:
			active = true
			if expire == "" {
				expire = "0"
			}
		}
	}
	switch {
	case expire != "" && expire != "0": // finished
		ops = append(ops, lobbyOp{IndexActive, "-", ms})
	case active:
		ops = append(ops, lobbyOp{IndexActive, "+", ms})
	}
	return ops, expire, nil
}

// Create stores a new room: its snapshot fields, its first event (seq 1; nil
// for none, seq 0) and its lobby membership. It fails with ErrExists if the
// room is already stored.
func (s *Store) Create(ctx context.Context, roomID string, fields map[string]string, firstEvent []byte, index IndexUpdate) error {
	var evs [][]byte
	if firstEvent != nil {
		evs = [][]byte{firstEvent}
	}
	_, err := s.write(ctx, roomID, "new", evs, fields, index)
	return err
}

// Append atomically checks that the room's seq is expectedSeq, appends the
// events (numbered expectedSeq+1, ...), sets the snapshot fields and the new
// seq, updates the lobby (see WithLobbyInScript) and publishes each event on
// the room channel, in one round trip (one EVALSHA). It returns the new seq.
//
// On ErrSeqConflict nothing was written and the returned seq is the stored
// one. On ErrUnavailable the outcome is unknown; retrying the same Append is
// safe: it is idempotent, succeeding without writing again when the same
// events are already stored right after expectedSeq (a try whose reply was
// lost). Fields, lobby and publish are not repeated in that case.
// Zero events are allowed (a fields or index update that keeps the seq).
func (s *Store) Append(ctx context.Context, roomID string, expectedSeq uint64, events [][]byte, fields map[string]string, index IndexUpdate) (uint64, error) {
	return s.write(ctx, roomID, strconv.FormatUint(expectedSeq, 10), events, fields, index)
}

// Finish moves the room to the finished index and sets the retention TTL on
// its keys, whatever its seq; it writes no event.
func (s *Store) Finish(ctx context.Context, roomID string, at time.Time) error {
	_, err := s.write(ctx, roomID, "any", nil, nil, FinishUpdate(at))
	return err
}

// UpdateIndex changes the room's lobby membership (and TTL, as for Append)
// without writing an event, whatever its seq.
func (s *Store) UpdateIndex(ctx context.Context, roomID string, index IndexUpdate) error {
	_, err := s.write(ctx, roomID, "any", nil, nil, index)
	return err
}

func (s *Store) write(ctx context.Context, roomID, expected string, events [][]byte, fields map[string]string, index IndexUpdate) (uint64, error) {
	if !validID(roomID) {
		return 0, fmt.Errorf("%w: invalid room id %q", ErrBadRequest, roomID)
	}
	if len(events) > MaxBatch || len(fields) > MaxBatch {
		return 0, fmt.Errorf("%w: more than %d events or fields in one append", ErrBadRequest, MaxBatch)
	}
	if _, ok := fields[FieldSeq]; ok {
		return 0, fmt.Errorf("%w: field %q is reserved", ErrBadRequest, FieldSeq)
	}
	ops, expire, err := s.lobbyOps(index, expected == "new")
	if err != nil {
		return 0, err
	}
	k := KeysFor(roomID)
	keys := []string{k.State, k.Events, k.Channel}
	pub := "PUBLISH"
	if s.sharded {
		pub = "SPUBLISH"
	}
	nl := 0
	if s.lobbyInScript {
		keys = append(keys, KeyLobbyLive, KeyLobbyOpen, KeyLobbyFinish, KeyRoomsActive)
		nl = len(ops)
	}
	args := make([]any, 0, 7+len(events)+2*len(fields)+3*nl)
	args = append(args, expected, len(events), len(fields), pub, expire, nl, roomID)
	for _, e := range events {
		args = append(args, e)
	}
	for f, v := range fields {
		args = append(args, f, v)
	}
	if s.lobbyInScript {
		for _, o := range ops {
			args = append(args, o.idx.pos(), o.op, o.score)
		}
	}
	res, err := s.batch.eval(ctx, keys, args)
	if err != nil {
		return 0, wrap("append "+roomID, err)
	}
	if len(res) != 2 {
		return 0, fmt.Errorf("eventlog: append %s: unexpected script reply %v", roomID, res)
	}
	seq := uint64(res[1])
	switch res[0] {
	case 1:
	case 2:
		return seq, nil // an earlier try of this very append was stored
	case 0:
		return seq, fmt.Errorf("%w: room %s is at seq %d, expected %s", ErrSeqConflict, roomID, seq, expected)
	case -1:
		return 0, fmt.Errorf("%w: %s", ErrNoSuchRoom, roomID)
	case -2:
		return seq, fmt.Errorf("%w: %s", ErrExists, roomID)
	default:
		return 0, fmt.Errorf("eventlog: append %s: unexpected script reply %v", roomID, res)
	}
	if !s.lobbyInScript && len(ops) > 0 {
		if err := s.applyLobby(ctx, roomID, ops); err != nil {
			// The events are stored; the index is derived data. Report, don't fail.
			s.log.Warn("eventlog: lobby index update failed after append", "room", roomID, "seq", seq, "err", err)
		}
	}
	return seq, nil
}

func (s *Store) applyLobby(ctx context.Context, roomID string, ops []lobbyOp) error {
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, o := range ops {
			switch o.op {
			case "+":
				sc, _ := strconv.ParseFloat(o.score, 64)
				p.ZAdd(ctx, o.idx.Key(), redis.Z{Score: sc, Member: roomID})
			case "-":
				p.ZRem(ctx, o.idx.Key(), roomID)
			case "<":
				p.ZRemRangeByScore(ctx, o.idx.Key(), "-inf", "("+o.score)
			}
		}
		return nil
	})
	return wrap("lobby "+roomID, err)
}

// Load returns the room's snapshot fields (without "seq") and its seq, read atomically.
func (s *Store) Load(ctx context.Context, roomID string) (map[string]string, uint64, error) {
	m, err := s.c.HGetAll(ctx, KeysFor(roomID).State).Result()
	if err != nil {
		return nil, 0, wrap("load "+roomID, err)
	}
	return splitSeq(roomID, m)
}

func splitSeq(roomID string, m map[string]string) (map[string]string, uint64, error) {
	raw, ok := m[FieldSeq]
	if !ok {
		return nil, 0, fmt.Errorf("%w: %s", ErrNoSuchRoom, roomID)
	}
	seq, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("eventlog: room %s: bad seq %q", roomID, raw)
	}
	delete(m, FieldSeq)
	return m, seq, nil
}

// Events returns the stored events with seq > fromSeq, in order (event i of
// the result has seq fromSeq+1+i). It fails with ErrNoSuchRoom for an unknown room.
func (s *Store) Events(ctx context.Context, roomID string, fromSeq uint64) ([][]byte, error) {
	k := KeysFor(roomID)
	var lr *redis.StringSliceCmd
	var ex *redis.IntCmd
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		ex = p.Exists(ctx, k.State)
		lr = p.LRange(ctx, k.Events, int64(fromSeq), -1)
		return nil
	})
	if err != nil {
		return nil, wrap("events "+roomID, err)
	}
	if ex.Val() == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNoSuchRoom, roomID)
	}
	return toBytes(lr.Val()), nil
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, v := range ss {
		out[i] = []byte(v)
	}
	return out
}

// Record is everything stored about one room (see Export).
type Record struct {
	ID     string            `json:"id"`
	Seq    uint64            `json:"seq"`
	Fields map[string]string `json:"fields"`
	Events [][]byte          `json:"events"`
	// ExpiresIn is the remaining retention (0: kept until finished).
	ExpiresIn time.Duration `json:"expires_in"`
}

// Export returns the room's fields, seq and whole event log, read atomically.
func (s *Store) Export(ctx context.Context, roomID string) (*Record, error) {
	k := KeysFor(roomID)
	var h *redis.MapStringStringCmd
	var lr *redis.StringSliceCmd
	var ttl *redis.DurationCmd
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		h = p.HGetAll(ctx, k.State)
		lr = p.LRange(ctx, k.Events, 0, -1)
		ttl = p.PTTL(ctx, k.State)
		return nil
	})
	if err != nil {
		return nil, wrap("export "+roomID, err)
	}
	fields, seq, err := splitSeq(roomID, h.Val())
	if err != nil {
		return nil, err
	}
	r := &Record{ID: roomID, Seq: seq, Fields: fields, Events: toBytes(lr.Val())}
	if d := ttl.Val(); d > 0 {
		r.ExpiresIn = d
	}
	return r, nil
}

// Delete removes the room's keys and its lobby entries (e.g. an aborted room
// nobody joined). Deleting an unknown room is not an error.
func (s *Store) Delete(ctx context.Context, roomID string) error {
	k := KeysFor(roomID)
	if err := s.c.Del(ctx, k.State, k.Events, k.Owner).Err(); err != nil {
		return wrap("delete "+roomID, err)
	}
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, i := range []Index{IndexLive, IndexOpen, IndexFinished, IndexActive} {
			p.ZRem(ctx, i.Key(), roomID)
		}
		return nil
	})
	return wrap("delete "+roomID, err)
}

// Ping checks that Redis answers (for /readyz).
func (s *Store) Ping(ctx context.Context) error {
	return wrap("ping", s.c.Ping(ctx).Err())
}
