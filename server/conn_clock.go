package server

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gomoku-arena/gomoku/room"
)

// Connection clock timing.
const (
	// pollInterval is how often the clock looks for room updates queued for parked
	// writers: the most a parked connection's first update after a quiet spell (over
	// writerLinger) waits. A tick costs ~20-60 ns per parked connection
	// (BenchmarkClockTick): 10,000 idle connections cost ~10-20 ms of CPU per second;
	// connections whose writer runs cost nothing.
	pollInterval = 25 * time.Millisecond
	// pingScanInterval is how often the clock looks for due pings and ended
	// subscriptions of parked writers.
	pingScanInterval = time.Second
)

// connClock is the one goroutine, shared by every connection of the process, that
// wakes parked writers: for a ping every pingPeriod, and when the room queued updates
// for them. Without it each connection would need a second goroutine blocked on its
// subscription channel. (A room-side notification on send would make the polling of
// parked connections unnecessary; see conn.updatesPending.) It runs only while there
// are connections.
var connClock = &clock{}

type clock struct {
	mu      sync.Mutex
	conns   []clockEntry
	parked  []parkedEntry       // joined connections whose writer parked (some may run again)
	rooms   map[roomKey][]*conn // joined connections by room
	running bool
	wake    []*conn     // scratch, used by run only
	noPoll  atomic.Bool // tests: ticks do not look for queued updates
}

// roomKey names a room of one Server (tests run several in a process).
type roomKey struct {
	s  *Server
	id string
}

// clockEntry is one connection as the clock sees it. The update channel is kept here,
// next to the others, so that a tick over thousands of parked connections touches
// little memory (about one cache line per connection: the channel's).
type clockEntry struct {
	c        *conn
	updates  <-chan *room.Update // nil until the connection joined
	nextPing time.Time
}

// parkedEntry is a parked connection with its update channel, which is all a tick
// reads of it (about one cache line).
type parkedEntry struct {
	c       *conn
	updates <-chan *room.Update
}

// add registers c; its first ping is due pingPeriod from now.
func (k *clock) add(c *conn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c.parkedIdx = -1
	c.clockIdx = len(k.conns)
	k.conns = append(k.conns, clockEntry{c: c, nextPing: time.Now().Add(pingPeriod)})
	if !k.running {
		k.running = true
		go k.run()
	}
}

// joined tells the clock the update channel of c's session.
func (k *clock) joined(c *conn, updates <-chan *room.Update) {
	k.mu.Lock()
	defer k.mu.Unlock()
	i := c.clockIdx
	if i < 0 || i >= len(k.conns) || k.conns[i].c != c {
		return
	}
	k.conns[i].updates = updates
	if k.rooms == nil {
		k.rooms = map[roomKey][]*conn{}
	}
	key := roomKey{c.s, c.roomID}
	c.roomIdx = len(k.rooms[key])
	k.rooms[key] = append(k.rooms[key], c)
}

// parkedNow lists c, whose writer has just parked, for the ticks to watch.
func (k *clock) parkedNow(c *conn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	i := c.clockIdx
	if c.parkedIdx >= 0 || i < 0 || i >= len(k.conns) || k.conns[i].c != c || k.conns[i].updates == nil {
		return // listed already, gone, or not joined (nothing to watch)
	}
	c.parkedIdx = len(k.parked)
	k.parked = append(k.parked, parkedEntry{c, k.conns[i].updates})
}

// unpark removes the parked entry at i (k.mu held).
func (k *clock) unpark(i int) {
	last := len(k.parked) - 1
	k.parked[i].c.parkedIdx = -1
	k.parked[i] = k.parked[last]
	if i != last {
		k.parked[i].c.parkedIdx = i
	}
	k.parked[last] = parkedEntry{}
	k.parked = k.parked[:last]
}

// wakeRoom wakes the parked writers of room id that have queued updates. A command's
// reply comes after the room queued its events for every subscriber, so the reader
// calls this after a command that changed the room: its parked peers on this node get
// the events at once instead of at the next tick.
func (k *clock) wakeRoom(s *Server, id string) {
	var wake []*conn
	k.mu.Lock()
	for _, c := range k.rooms[roomKey{s, id}] {
		if c.wstate.Load() == writerParked && len(k.conns[c.clockIdx].updates) > 0 {
			wake = append(wake, c)
		}
	}
	k.mu.Unlock()
	for _, c := range wake {
		c.wakeWriter()
	}
}

// remove unregisters c (idempotent).
func (k *clock) remove(c *conn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	i := c.clockIdx
	if i < 0 || i >= len(k.conns) || k.conns[i].c != c {
		return
	}
	if c.parkedIdx >= 0 {
		k.unpark(c.parkedIdx)
	}
	if k.conns[i].updates != nil {
		key := roomKey{c.s, c.roomID}
		peers := k.rooms[key]
		j, lastPeer := c.roomIdx, len(peers)-1
		peers[j] = peers[lastPeer]
		peers[j].roomIdx = j
		peers[lastPeer] = nil
		if lastPeer == 0 {
			delete(k.rooms, key)
		} else {
			k.rooms[key] = peers[:lastPeer]
		}
	}
	last := len(k.conns) - 1
	k.conns[i] = k.conns[last]
	k.conns[i].c.clockIdx = i
	k.conns[last] = clockEntry{}
	k.conns = k.conns[:last]
	c.clockIdx = -1
	if cap(k.conns) > 64 && len(k.conns) < cap(k.conns)/4 {
		k.conns = append([]clockEntry(nil), k.conns...) // give memory back after a peak
	}
	if cap(k.parked) > 64 && len(k.parked) < cap(k.parked)/4 {
		k.parked = append([]parkedEntry(nil), k.parked...)
	}
}

func (k *clock) run() {
	t := time.NewTicker(pollInterval)
	defer t.Stop()
	lastScan := time.Now()
	for now := range t.C {
		scan := now.Sub(lastScan) >= pingScanInterval
		if scan {
			lastScan = now
		}
		if !k.tick(now, scan) {
			return
		}
	}
}

// tick wakes the writers that have work; false when no connection is left (the clock
// goroutine then ends; the next add starts it again).
func (k *clock) tick(now time.Time, scan bool) bool {
	k.mu.Lock()
	if len(k.conns) == 0 {
		k.running = false
		k.mu.Unlock()
		return false
	}
	wake := k.wake[:0]
	if !k.noPoll.Load() {
		for i := 0; i < len(k.parked); {
			e := k.parked[i]
			// Only the channel is read on most ticks; entries whose writer runs again
			// are dropped when they show updates or at the next scan.
			if len(e.updates) > 0 {
				if e.c.wstate.Load() == writerParked {
					wake = append(wake, e.c)
				}
				k.unpark(i) // listed again when it parks
				continue
			}
			if scan && e.c.wstate.Load() != writerParked {
				k.unpark(i)
				continue
			}
			i++
		}
	}
	if scan {
		for i := range k.conns {
			e := &k.conns[i]
			c := e.c
			switch {
			case !now.Before(e.nextPing):
				e.nextPing = now.Add(pingPeriod)
				c.pingDue.Store(true)
				wake = append(wake, c)
			case e.updates != nil && c.wstate.Load() == writerParked:
				// A subscription closed while parked (the room stopped) shows no queued
				// update; its Err says so.
				if a := c.att.Load(); a != nil && a.sess.Err() != nil {
					wake = append(wake, c)
				}
			}
		}
	}
	k.mu.Unlock()
	for i, c := range wake {
		c.wakeWriter()
		wake[i] = nil
	}
	k.wake = wake[:0]
	return true
}
