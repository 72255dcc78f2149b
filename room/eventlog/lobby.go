package eventlog

import (
	"context"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"
)

// List returns up to limit room ids of one lobby index, most recent activity
// first, starting at cursor ("" for the first page). next is the cursor of
// the following page, "" at the end. Cursors are offsets: a room whose
// activity changes between two pages may be seen twice or not at all, which
// is fine for a lobby. For IndexFinished, entries older than the retention are
// pruned first.
func (s *Store) List(ctx context.Context, which Index, cursor string, limit int) (ids []string, next string, err error) {
	key := which.Key()
	if key == "" {
		return nil, "", fmt.Errorf("%w: unknown index %q", ErrBadRequest, which)
	}
	if limit <= 0 || limit > 1000 {
		return nil, "", fmt.Errorf("%w: limit %d not in 1..1000", ErrBadRequest, limit)
	}
	var off int64
	if cursor != "" {
		off, err = strconv.ParseInt(cursor, 10, 64)
		if err != nil || off < 0 {
			return nil, "", fmt.Errorf("%w: bad cursor %q", ErrBadRequest, cursor)
		}
	}
	if which == IndexFinished {
		cut := s.now().Add(-s.retention).UnixMilli()
		if err := s.c.ZRemRangeByScore(ctx, key, "-inf", "("+strconv.FormatInt(cut, 10)).Err(); err != nil {
			return nil, "", wrap("list", err)
		}
	}
	// One more than asked tells whether there is a next page.
	ids, err = s.c.ZRevRange(ctx, key, off, off+int64(limit)).Result()
	if err != nil {
		return nil, "", wrap("list", err)
	}
	if len(ids) > limit {
		ids = ids[:limit]
		next = strconv.FormatInt(off+int64(limit), 10)
	}
	return ids, next, nil
}

// Count returns the number of rooms in an index.
func (s *Store) Count(ctx context.Context, which Index) (int64, error) {
	if which.Key() == "" {
		return 0, fmt.Errorf("%w: unknown index %q", ErrBadRequest, which)
	}
	n, err := s.c.ZCard(ctx, which.Key()).Result()
	return n, wrap("count", err)
}

// LiveRooms returns every unfinished room, public or private (IndexActive),
// least recently active first: the rooms a node must be able to restore after
// a restart. A listed room may have been deleted or expired meanwhile: Load
// then returns ErrNoSuchRoom.
func (s *Store) LiveRooms(ctx context.Context) ([]string, error) {
	ids, err := s.c.ZRange(ctx, KeyRoomsActive, 0, -1).Result()
	return ids, wrap("live rooms", err)
}

// LoadMany loads the snapshot fields and seqs of several rooms in one
// pipelined round trip (for lobby pages). Missing rooms get a nil map and seq 0.
func (s *Store) LoadMany(ctx context.Context, roomIDs []string) ([]map[string]string, []uint64, error) {
	cmds := make([]*redis.MapStringStringCmd, len(roomIDs))
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range roomIDs {
			cmds[i] = p.HGetAll(ctx, KeysFor(id).State)
		}
		return nil
	})
	if err != nil {
		return nil, nil, wrap("load many", err)
	}
	fields := make([]map[string]string, len(roomIDs))
	seqs := make([]uint64, len(roomIDs))
	for i, c := range cmds {
		if f, seq, err := splitSeq(roomIDs[i], c.Val()); err == nil {
			fields[i], seqs[i] = f, seq
		}
	}
	return fields, seqs, nil
}
