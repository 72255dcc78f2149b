package server

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// clientFrame frames payload as a client frame: opcode op, final or not, masked with
// key (RFC 6455 5.2), with the shortest length encoding unless long forces 64 bits.
func clientFrame(op byte, fin bool, key [4]byte, payload []byte, long bool) []byte {
	b0 := op
	if fin {
		b0 |= 0x80
	}
	n := len(payload)
	var out []byte
	switch {
	case long:
		out = append([]byte{b0, 0x80 | 127}, binary.BigEndian.AppendUint64(nil, uint64(n))...)
	case n <= 125:
		out = []byte{b0, 0x80 | byte(n)}
	default:
		out = append([]byte{b0, 0x80 | 126}, byte(n>>8), byte(n))
	}
	out = append(out, key[:]...)
	for i, c := range payload {
		out = append(out, c^key[i%4])
	}
	return out
}

// TestFrameTrackerEnds is a known-answer table: the offsets where messages end in a
// client stream, whatever the reads' sizes.
func TestFrameTrackerEnds(t *testing.T) {
	key := [4]byte{1, 2, 3, 4}
	text := func(s string) []byte { return clientFrame(1, true, key, []byte(s), false) }
	ping := clientFrame(9, true, key, []byte("p"), false)
	first := clientFrame(1, false, key, []byte(`{"type":`), false)
	last := clientFrame(0, true, key, []byte(`"ping"}`), false)
	mid := clientFrame(0, false, key, []byte(` `), false)
	long := clientFrame(1, true, key, []byte(strings.Repeat("x", 300)), false)
	huge := clientFrame(2, true, key, []byte(strings.Repeat("y", 70000)), true)
	empty := clientFrame(1, true, key, nil, false)
	unmasked := []byte{0x81, 2, 'h', 'i'}
	cat := func(parts ...[]byte) []byte {
		return []byte(strings.Join(func() []string {
			var s []string
			for _, p := range parts {
				s = append(s, string(p))
			}
			return s
		}(), ""))
	}
	sum := func(parts ...[]byte) int64 {
		var n int64
		for _, p := range parts {
			n += int64(len(p))
		}
		return n
	}
	tests := []struct {
		name   string
		stream []byte
		ends   []int64
	}{
		{"one text", text("a"), []int64{sum(text("a"))}},
		{"two texts", cat(text("a"), text("bc")), []int64{sum(text("a")), sum(text("a"), text("bc"))}},
		{"control frames end no message", cat(ping, text("a"), ping), []int64{sum(ping, text("a"))}},
		{"fragmented with a ping inside", cat(first, ping, mid, last), []int64{sum(first, ping, mid, last)}},
		{"16-bit length", cat(long, text("a")), []int64{sum(long), sum(long, text("a"))}},
		{"64-bit length", cat(huge, empty), []int64{sum(huge), sum(huge, empty)}},
		{"empty payload", empty, []int64{sum(empty)}},
		{"unmasked", cat(unmasked, text("a")), []int64{4, 4 + sum(text("a"))}},
		{"incomplete", cat(text("a"), long[:10]), []int64{sum(text("a"))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Every read size from one byte to the whole stream at once.
			for _, chunk := range []int{1, 2, 3, 7, 64, 1 << 20} {
				var ft frameTracker
				var ends []int64
				for off := 0; off < len(tc.stream); off += chunk {
					end := min(off+chunk, len(tc.stream))
					ends = ft.track(tc.stream[off:end], int64(off), ends)
				}
				require.Equal(t, tc.ends, ends, "reads of %d bytes", chunk)
			}
		})
	}
}

// TestFrameTrackerRefusesHugeLength: a length with the top bit set (which gorilla
// refuses) stops tracking instead of overflowing.
func TestFrameTrackerRefusesHugeLength(t *testing.T) {
	var ft frameTracker
	stream := append([]byte{0x82, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4}, 1, 2, 3)
	require.Empty(t, ft.track(stream, 0, nil))
	require.True(t, ft.bad)
}

// FuzzFrameTracker: any byte stream, read in any two pieces, gives the same message
// ends as read at once, never an end outside the stream, in increasing order.
func FuzzFrameTracker(f *testing.F) {
	key := [4]byte{9, 8, 7, 6}
	f.Add(append(clientFrame(1, true, key, []byte("hello"), false), clientFrame(9, true, key, nil, false)...), 3)
	f.Add(clientFrame(2, true, key, make([]byte, 200), true), 11)
	f.Add([]byte{0x81, 0xfe, 0xff}, 1)
	f.Fuzz(func(t *testing.T, stream []byte, split int) {
		var whole frameTracker
		want := whole.track(stream, 0, nil)
		if split < 0 {
			split = -split
		}
		split %= len(stream) + 1
		var parts frameTracker
		got := parts.track(stream[:split], 0, nil)
		got = parts.track(stream[split:], int64(split), got)
		require.Equal(t, want, got)
		for i, e := range want {
			require.True(t, e > 0 && e <= int64(len(stream)), "end %d outside the stream", e)
			if i > 0 {
				require.Greater(t, e, want[i-1])
			}
		}
	})
}

// TestPipelinedFramesAnswered: frames that reach the server in one TCP segment (a
// control frame, a fragmented message, several commands) are all answered without the
// client sending anything more. The reader waits on the socket between messages only
// when gorilla's read buffer is empty; if it waited with frames buffered, the later
// commands would go unanswered until the next ping.
func TestPipelinedFramesAnswered(t *testing.T) {
	e := newEnv(t, nil)
	pa := e.player("Alice")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	c := e.dial(id)
	c.hello(pa.Token, 0)
	key := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	var burst []byte
	burst = append(burst, clientFrame(9, true, key, []byte("hb"), false)...)
	burst = append(burst, clientFrame(1, false, key, []byte(`{"type":"ping",`), false)...)
	burst = append(burst, clientFrame(0, true, key, []byte(`"id":"frag"}`), false)...)
	padded := fmt.Sprintf(`{"type":"ping","id":"long"%s}`, strings.Repeat(" ", 200))
	burst = append(burst, clientFrame(1, true, key, []byte(padded), false)...)
	for i := range 3 {
		burst = append(burst, clientFrame(1, true, key, fmt.Appendf(nil, `{"type":"ping","id":"p%d"}`, i), false)...)
	}
	_, err := c.ws.NetConn().Write(burst)
	require.NoError(t, err)
	for _, want := range []string{"frag", "long", "p0", "p1", "p2"} {
		c.until("pong "+want, func(m msg) bool { return m.typ() == TypePong && m.str("id") == want })
	}
}
