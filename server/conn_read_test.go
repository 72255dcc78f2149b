package server

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/gomoku-arena/gomoku/room/protocol"
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

// TestPipelinedFramesAnswered: frames that reach the server in one TCP segment (a
// control frame, a fragmented message, several commands) are all answered without the
// client sending anything more.
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
		c.until("pong "+want, func(m msg) bool { return m.typ() == protocol.TypePong && m.str("id") == want })
	}
}
