package migrations

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// up1 sets up layout version 1:
//
//	gomoku:{room:ID}:state   hash   snapshot fields + "seq"
//	gomoku:{room:ID}:events  list   event log, element i = seq i+1
//	gomoku:{room:ID}:owner   string lease holder (PX expiry)
//	gomoku:lobby:live|open|finished  sorted sets, member room id,
//	                         score = last activity in Unix SECONDS
//	gomoku:schema            hash   "version", "applied:N", "created"
//
// Redis creates the room and lobby keys on first write, so there is nothing
// to build; the migration records when the store was created. Re-running it
// keeps the first "created".
func up1(ctx context.Context, c redis.UniversalClient) error {
	return wrap("create schema record", c.HSetNX(ctx, KeySchema, "created", time.Now().UnixMilli()).Err())
}
