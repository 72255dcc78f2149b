package eventlog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// Message is one message received on a room channel.
type Message struct {
	// Seq is the event's seq, or 0 for an ephemeral message sent with Publish.
	Seq uint64
	// Data is the event (or ephemeral message) as stored/published.
	Data []byte
	// Reconnected is set (with no Seq or Data) when the subscription was
	// re-established after a lost connection: messages published meanwhile
	// were missed, so catch up with Events from the last seq seen.
	Reconnected bool
}

// pingEvery is how long a subscription may stay silent before it is pinged
// (to find a half-open connection).
const pingEvery = 15 * time.Second

// Subscribe subscribes to the room channel. When it returns, the
// subscription is confirmed by Redis: every event appended after that is
// delivered, in seq order. So a reader that subscribes, then reads Events
// from its last seq, then skips messages with Seq <= the last seq it has,
// misses nothing. Gaps (a consumer too slow for Redis's pub/sub output
// buffer, a dropped connection) show as a Reconnected message or a jump in
// Seq: catch up with Events. The channel is closed after close() is called
// or ctx is done; close waits for the reader goroutine to exit.
//
// Sharded pub/sub (SSUBSCRIBE) is used when the Store is sharded (see
// WithShardedPubSub), so a room's messages stay on the node of its slot.
func (s *Store) Subscribe(ctx context.Context, roomID string) (<-chan Message, func(), error) {
	if !validID(roomID) {
		return nil, nil, fmt.Errorf("%w: invalid room id %q", ErrBadRequest, roomID)
	}
	name := KeysFor(roomID).Channel
	var ps *redis.PubSub
	if s.sharded {
		ps = s.c.SSubscribe(ctx, name)
	} else {
		ps = s.c.Subscribe(ctx, name)
	}
	first, err := ps.Receive(ctx)
	if err == nil {
		if _, ok := first.(*redis.Subscription); !ok {
			err = fmt.Errorf("unexpected first reply %T", first)
		}
	}
	if err != nil {
		_ = ps.Close()
		return nil, nil, wrap("subscribe "+roomID, err)
	}
	pctx, cancel := context.WithCancel(ctx)
	out := make(chan Message, 64)
	done := make(chan struct{})
	// A blocked receive does not watch ctx: closing the PubSub unblocks it.
	stop := context.AfterFunc(pctx, func() { _ = ps.Close() })
	go s.pump(pctx, ps, out, done)
	closeFn := func() {
		cancel()
		stop()
		_ = ps.Close()
		<-done
	}
	return out, closeFn, nil
}

func (s *Store) pump(ctx context.Context, ps *redis.PubSub, out chan<- Message, done chan<- struct{}) {
	defer close(done)
	defer close(out)
	send := func(m Message) bool {
		select {
		case out <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	s.receive(ctx, ps, pubsubHandler{
		// A lost connection needs nothing here: go-redis reconnects and resubscribes
		// on the next receive, and the new confirmation tells the consumer.
		subscribed: func(string) bool { return send(Message{Reconnected: true}) },
		message:    func(_ string, m Message) bool { return send(m) },
	})
}

// pubsubHandler is what receive calls back; nil fields are skipped. subscribed and
// message return false to stop receiving.
type pubsubHandler struct {
	lost       func()                               // the connection was lost
	subscribed func(channel string) bool            // a (s)subscribe confirmation
	message    func(channel string, m Message) bool // a well-formed room message
	pong       func(payload string)
}

// receive reads ps until ctx ends, ps is closed or a handler says stop. A silent
// connection is pinged every pingEvery (a dead one fails the ping and is replaced); after
// a lost connection it waits with exponential backoff (50 ms to 2 s) before receiving
// again, which makes go-redis reconnect and resubscribe. Malformed messages are logged
// and dropped.
func (s *Store) receive(ctx context.Context, ps *redis.PubSub, h pubsubHandler) {
	backoff := 50 * time.Millisecond
	for ctx.Err() == nil {
		msg, err := ps.ReceiveTimeout(ctx, pingEvery)
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, redis.ErrClosed) {
				return
			}
			var to interface{ Timeout() bool }
			if errors.As(err, &to) && to.Timeout() {
				_ = ps.Ping(ctx)
				continue
			}
			if h.lost != nil {
				h.lost()
			}
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
				return
			}
			backoff = min(2*backoff, 2*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		switch m := msg.(type) {
		case *redis.Pong:
			if h.pong != nil {
				h.pong(m.Payload)
			}
		case *redis.Subscription:
			if (m.Kind == "subscribe" || m.Kind == "ssubscribe") && h.subscribed != nil && !h.subscribed(m.Channel) {
				return
			}
		case *redis.Message:
			seq, data, ok := parsePayload(m.Payload)
			if !ok {
				s.log.Warn("eventlog: malformed pub/sub message", "channel", m.Channel)
				continue
			}
			if h.message != nil && !h.message(m.Channel, Message{Seq: seq, Data: data}) {
				return
			}
		}
	}
}

// payload is "<seq>:<data>" (seq 0 for ephemeral messages).
func parsePayload(p string) (uint64, []byte, bool) {
	i := bytes.IndexByte([]byte(p[:min(len(p), 21)]), ':')
	if i <= 0 {
		return 0, nil, false
	}
	seq, err := strconv.ParseUint(p[:i], 10, 64)
	if err != nil {
		return 0, nil, false
	}
	return seq, []byte(p[i+1:]), true
}

// Publish sends an ephemeral message (AI progress, presence, ...) to every
// subscriber of the room on any node. It is not stored and has Seq 0.
func (s *Store) Publish(ctx context.Context, roomID string, data []byte) error {
	if !validID(roomID) {
		return fmt.Errorf("%w: invalid room id %q", ErrBadRequest, roomID)
	}
	msg := make([]byte, 0, len(data)+2)
	msg = append(append(msg, '0', ':'), data...)
	name := KeysFor(roomID).Channel
	var err error
	if s.sharded {
		err = s.c.SPublish(ctx, name, msg).Err()
	} else {
		err = s.c.Publish(ctx, name, msg).Err()
	}
	return wrap("publish "+roomID, err)
}
