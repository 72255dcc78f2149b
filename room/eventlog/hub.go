package eventlog

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// sinkBuffer is how many messages a Hub subscriber may fall behind before it
// loses messages (and is told so with a Reconnected message).
const sinkBuffer = 256

// Hub multiplexes a node's room subscriptions over ONE Redis pub/sub
// connection, instead of one connection per Store.Subscribe. Its Subscribe has
// the same contract as Store.Subscribe. A slow subscriber never delays the
// others: when its buffer is full its messages are dropped and the next one
// it gets is a Reconnected message (catch up with Events).
//
// Subscribe returns once Redis has answered a PING sent after the SUBSCRIBE
// on the same connection, so the subscription is in effect. After a lost
// connection, go-redis re-subscribes every channel and each sink gets a
// Reconnected message.
//
// On a sharded Store (Redis Cluster) channels of different slots cannot share
// a connection, so the Hub falls back to one Store.Subscribe per call.
type Hub struct {
	s  *Store
	ps *redis.PubSub

	cmdMu  sync.Mutex // orders SUBSCRIBE/UNSUBSCRIBE/PING with the map state
	mu     sync.Mutex
	rooms  map[string]*hubChan // by channel name
	pongs  map[string]*hubSink // PING token -> sink waiting for it
	nextID uint64
	closed bool
	done   chan struct{}
	cancel context.CancelFunc
}

type hubChan struct {
	sinks map[*hubSink]struct{}
}

type hubSink struct {
	ch    chan Message
	gap   bool
	ready chan struct{} // closed when the subscription is in effect
	token string        // pending PING token ("" when ready or lost)
	lost  bool          // the PING went down with a connection
}

// NewHub returns a Hub over the Store's client. Close it when done.
func (s *Store) NewHub() *Hub {
	h := &Hub{s: s, rooms: map[string]*hubChan{}, pongs: map[string]*hubSink{}, done: make(chan struct{})}
	if s.sharded {
		close(h.done)
		return h
	}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	h.ps = s.c.Subscribe(ctx) // no channels yet
	go h.loop(ctx)
	return h
}

// Subscribe subscribes to the room channel; see Store.Subscribe.
func (h *Hub) Subscribe(ctx context.Context, roomID string) (<-chan Message, func(), error) {
	if h.ps == nil {
		return h.s.Subscribe(ctx, roomID)
	}
	if !validID(roomID) {
		return nil, nil, fmt.Errorf("%w: invalid room id %q", ErrBadRequest, roomID)
	}
	name := KeysFor(roomID).Channel
	sink := &hubSink{ch: make(chan Message, sinkBuffer), ready: make(chan struct{})}
	h.cmdMu.Lock()
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		h.cmdMu.Unlock()
		return nil, nil, fmt.Errorf("eventlog: hub closed")
	}
	hc := h.rooms[name]
	if hc == nil {
		hc = &hubChan{sinks: map[*hubSink]struct{}{}}
		h.rooms[name] = hc
	}
	hc.sinks[sink] = struct{}{}
	first := len(hc.sinks) == 1
	h.nextID++
	token := "gomoku-hub-" + strconv.FormatUint(h.nextID, 10)
	sink.token = token // cleared under h.mu by pong or connectionLost: the PING uses the copy
	h.pongs[token] = sink
	h.mu.Unlock()
	var err error
	if first {
		err = h.ps.Subscribe(ctx, name)
	}
	if err == nil {
		err = h.ps.Ping(ctx, token)
	}
	h.cmdMu.Unlock()
	var once sync.Once
	unsubscribe := func() { once.Do(func() { h.remove(name, sink) }) }
	if err != nil {
		unsubscribe()
		return nil, nil, wrap("subscribe "+roomID, err)
	}
	select {
	case <-sink.ready:
	case <-ctx.Done():
		unsubscribe()
		return nil, nil, wrap("subscribe "+roomID, ctx.Err())
	}
	return sink.ch, unsubscribe, nil
}

func (h *Hub) remove(name string, sink *hubSink) {
	h.cmdMu.Lock()
	defer h.cmdMu.Unlock()
	h.mu.Lock()
	hc := h.rooms[name]
	if hc == nil || h.closed {
		h.mu.Unlock()
		return
	}
	if _, ok := hc.sinks[sink]; !ok {
		h.mu.Unlock()
		return
	}
	delete(hc.sinks, sink)
	delete(h.pongs, sink.token)
	close(sink.ch)
	last := len(hc.sinks) == 0
	if last {
		delete(h.rooms, name)
	}
	h.mu.Unlock()
	if last {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = h.ps.Unsubscribe(ctx, name)
		cancel()
	}
}

// Close ends every subscription (closing their channels) and the connection.
func (h *Hub) Close() error {
	if h.ps == nil {
		return nil
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	h.mu.Unlock()
	h.cancel()
	err := h.ps.Close()
	<-h.done
	h.mu.Lock()
	for name, hc := range h.rooms {
		for sink := range hc.sinks {
			close(sink.ch)
			sink.markReady()
		}
		delete(h.rooms, name)
	}
	h.mu.Unlock()
	return err
}

// Rooms returns how many rooms the Hub has subscribers for.
func (h *Hub) Rooms() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rooms)
}

func (h *Hub) loop(ctx context.Context) {
	defer close(h.done)
	h.s.receive(ctx, h.ps, pubsubHandler{
		lost:       h.connectionLost,
		subscribed: func(name string) bool { h.subscribed(name); return true },
		message:    func(name string, m Message) bool { h.deliver(name, m); return true },
		pong:       h.pong,
	})
}

func (k *hubSink) markReady() {
	select {
	case <-k.ready:
	default:
		close(k.ready)
	}
}

func (k *hubSink) isReady() bool {
	select {
	case <-k.ready:
		return true
	default:
		return false
	}
}

// pong: the PING sent after a SUBSCRIBE came back, so that SUBSCRIBE is in effect.
func (h *Hub) pong(token string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if sink := h.pongs[token]; sink != nil {
		delete(h.pongs, token)
		sink.token = ""
		sink.markReady()
	}
}

// connectionLost: PINGs written to the dead connection never come back. The
// sinks waiting for one are released by their channel's re-subscription.
func (h *Hub) connectionLost() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for token, sink := range h.pongs {
		delete(h.pongs, token)
		sink.token = ""
		sink.lost = true
	}
}

// subscribed handles a subscribe confirmation. One that answers our own
// SUBSCRIBE needs nothing (the PING after it releases the caller); one from
// go-redis re-subscribing after a reconnect releases the sinks whose PING was
// lost and tells the ready ones that they may have missed messages.
func (h *Hub) subscribed(name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hc := h.rooms[name]
	if hc == nil {
		return
	}
	for sink := range hc.sinks {
		if sink.token != "" {
			return // our own SUBSCRIBE is being confirmed
		}
	}
	for sink := range hc.sinks {
		if sink.lost {
			sink.lost = false
			sink.markReady()
			continue
		}
		if sink.isReady() {
			sink.send(Message{Reconnected: true})
		}
	}
}

func (h *Hub) deliver(name string, m Message) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hc := h.rooms[name]
	if hc == nil {
		return
	}
	for sink := range hc.sinks {
		sink.send(m)
	}
}

// send never blocks: a full sink loses the message and gets a Reconnected
// message first thing when it has room again. Called with h.mu held.
func (k *hubSink) send(m Message) {
	if k.gap {
		select {
		case k.ch <- Message{Reconnected: true}:
			k.gap = false
		default:
			return
		}
	}
	select {
	case k.ch <- m:
	default:
		k.gap = true
	}
}
