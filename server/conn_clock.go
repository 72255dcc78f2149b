package server

import (
	"sync"
	"time"
)

// pingScanInterval is how often the ping clock looks for due pings.
const pingScanInterval = time.Second

// pingClock is the one goroutine per Server that asks connections for their pings:
// every pingPeriod it marks a connection's ping due and wakes its writer (starting it
// if parked). Room updates wake parked writers themselves (room.SubscribeOptions.Notify,
// conn.roomUpdate), so an idle connection needs no goroutine of its own besides its
// reader. The goroutine runs only while the Server has connections.
type pingClock struct {
	mu      sync.Mutex
	conns   []pingEntry
	running bool
	wake    []*conn // scratch, used by run only
}

// pingEntry is one connection and when its next ping is due.
type pingEntry struct {
	c        *conn
	nextPing time.Time
}

// add registers c; its first ping is due pingPeriod from now.
func (k *pingClock) add(c *conn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	c.clockIdx = len(k.conns)
	k.conns = append(k.conns, pingEntry{c: c, nextPing: time.Now().Add(pingPeriod)})
	if !k.running {
		k.running = true
		go k.run()
	}
}

// remove unregisters c (idempotent).
func (k *pingClock) remove(c *conn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	i := c.clockIdx
	if i < 0 || i >= len(k.conns) || k.conns[i].c != c {
		return
	}
	last := len(k.conns) - 1
	k.conns[i] = k.conns[last]
	k.conns[i].c.clockIdx = i
	k.conns[last] = pingEntry{}
	k.conns = k.conns[:last]
	c.clockIdx = -1
	if cap(k.conns) > 64 && len(k.conns) < cap(k.conns)/4 {
		k.conns = append([]pingEntry(nil), k.conns...) // give memory back after a peak
	}
}

// dueNow makes every registered connection's ping due at the next scan (tests).
func (k *pingClock) dueNow() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i := range k.conns {
		k.conns[i].nextPing = time.Now()
	}
}

func (k *pingClock) run() {
	t := time.NewTicker(pingScanInterval)
	defer t.Stop()
	for now := range t.C {
		if !k.tick(now) {
			return
		}
	}
}

// tick wakes the writers whose ping is due; false when no connection is left (the
// goroutine then ends; the next add starts it again).
func (k *pingClock) tick(now time.Time) bool {
	k.mu.Lock()
	if len(k.conns) == 0 {
		k.running = false
		k.mu.Unlock()
		return false
	}
	wake := k.wake[:0]
	for i := range k.conns {
		e := &k.conns[i]
		if !now.Before(e.nextPing) {
			e.nextPing = now.Add(pingPeriod)
			e.c.pingDue.Store(true)
			wake = append(wake, e.c)
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
