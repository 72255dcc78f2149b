package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/redisstore"
)

// fieldSummary is the room state-hash field holding the lobby summary (JSON).
const fieldSummary = "summary"

// RedisRoomStore implements room.Store and room.Lister on a redisstore.Store: events
// are stored JSON-encoded in the room's log by the seq-checked append script, the
// summary in the room's state hash, lobby membership in the sorted sets.
type RedisRoomStore struct{ S *redisstore.Store }

var (
	_ room.Store  = RedisRoomStore{}
	_ room.Lister = RedisRoomStore{}
)

// storeErr maps redisstore errors to the room.Store contract.
func storeErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, redisstore.ErrSeqConflict):
		return fmt.Errorf("%w: %v", room.ErrSeqConflict, err)
	case errors.Is(err, redisstore.ErrNoSuchRoom):
		return fmt.Errorf("%w: %v", room.ErrNotFound, err)
	case errors.Is(err, redisstore.ErrExists):
		return fmt.Errorf("%w: %v", room.ErrExists, err)
	}
	return fmt.Errorf("%w: %v", room.ErrStoreUnavailable, err)
}

func summaryWrite(sum room.Summary) (map[string]string, redisstore.IndexUpdate, error) {
	b, err := json.Marshal(sum)
	if err != nil {
		return nil, redisstore.IndexUpdate{}, err
	}
	at := time.UnixMilli(sum.UpdatedAt)
	var idx redisstore.IndexUpdate
	switch sum.Status {
	case "open":
		idx = redisstore.Touch(at, redisstore.IndexLive, redisstore.IndexOpen)
	case "finished":
		idx = redisstore.FinishUpdate(at)
	default:
		idx = redisstore.Touch(at, redisstore.IndexLive)
	}
	return map[string]string{fieldSummary: string(b)}, idx, nil
}

// Create implements room.Store.
func (s RedisRoomStore) Create(ctx context.Context, id string, first room.Event, sum room.Summary) error {
	ev, err := room.EncodeEvent(first)
	if err != nil {
		return err
	}
	fields, idx, err := summaryWrite(sum)
	if err != nil {
		return err
	}
	return storeErr(s.S.Create(ctx, id, fields, ev, idx))
}

// Append implements room.Store.
func (s RedisRoomStore) Append(ctx context.Context, id string, expectedSeq uint64, events []room.Event, sum room.Summary) error {
	raw := make([][]byte, len(events))
	for i, e := range events {
		b, err := room.EncodeEvent(e)
		if err != nil {
			return err
		}
		raw[i] = b
	}
	fields, idx, err := summaryWrite(sum)
	if err != nil {
		return err
	}
	_, err = s.S.Append(ctx, id, expectedSeq, raw, fields, idx)
	return storeErr(err)
}

// Events implements room.Store (events with Seq >= fromSeq).
func (s RedisRoomStore) Events(ctx context.Context, id string, fromSeq uint64) ([]room.Event, error) {
	after := uint64(0)
	if fromSeq > 1 {
		after = fromSeq - 1
	}
	raw, err := s.S.Events(ctx, id, after)
	if err != nil {
		return nil, storeErr(err)
	}
	out := make([]room.Event, 0, len(raw))
	for _, b := range raw {
		e, err := room.DecodeEvent(b)
		if err != nil {
			return nil, fmt.Errorf("server: room %s: stored event: %w", id, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// List implements room.Lister: one lobby index page, public rooms whose status matches.
func (s RedisRoomStore) List(ctx context.Context, q room.ListQuery) ([]room.Summary, string, error) {
	idx, ok := redisstore.ParseIndex(q.Status)
	if !ok {
		idx = redisstore.IndexLive
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 50
	}
	ids, next, err := s.S.List(ctx, idx, q.Cursor, limit)
	if errors.Is(err, redisstore.ErrBadRequest) {
		return nil, "", Errorf(CodeBadRequest, "bad cursor")
	}
	if err != nil {
		return nil, "", storeErr(err)
	}
	fields, _, err := s.S.LoadMany(ctx, ids)
	if err != nil {
		return nil, "", storeErr(err)
	}
	out := make([]room.Summary, 0, len(ids))
	for _, f := range fields {
		var sum room.Summary
		if f == nil || json.Unmarshal([]byte(f[fieldSummary]), &sum) != nil {
			continue
		}
		if !q.All && !sum.Public {
			continue
		}
		if q.Status != "" && sum.Status != q.Status {
			continue
		}
		out = append(out, sum)
	}
	return out, next, nil
}
