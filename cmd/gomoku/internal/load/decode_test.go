package load

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var decodeSeeds = []string{
	`{"type":"event","seq":12,"event":{"seq":12,"kind":"move","at":1764450000000,"game":1,"color":"black","point":"h8","ply":10,"clock_ms":287345,"clock":{"black_ms":1,"white_ms":2}}}`,
	`{"type":"ack","id":"m1.10","seq":12}`,
	`{"type":"ack","id":"m1.10","seq":12,"duplicate":true}`,
	`{"type":"error","id":"m1.3","code":"stale_ply","message":"the move is for ply 3, the game is at ply 4"}`,
	`{"type":"event","seq":3,"event":{"seq":3,"kind":"seated","at":1,"game":1,"color":"white","player":{"id":"p_1","name":"load1-b"},"ply":0}}`,
	`{"type":"event","seq":40,"event":{"seq":40,"kind":"game_over","at":1,"game":2,"ply":30,"result":"white","reason":"five","line":["a1","a2","a3","a4","a5"]}}`,
	`{"type":"presence","ephemeral":true,"black":{"connected":true,"since":1764450000000,"grace_ms":60000},"white":{"connected":false,"since":0,"grace_ms":60000},"spectators":3}`,
	`{"type":"pong","id":"p1"}`,
	`{"type":"ai","ephemeral":true,"color":"white","status":"thinking","depth":3,"score":-12,"pv":["h8","i9"],"nps":1.5e3}`,
	`{"type":"welcome","room_id":"r1","you":{"role":"black","player_id":"p_1","name":"x"}}`,
	`{"type":"snapshot","seq":5,"room":{"seq":5,"game":1,"phase":"playing","moves":["h8"],"settings":{"size":15}}}`,
	`{"type":"resync"}`,
	` { "type" : "ack" , "id" : "m2.4" , "seq" : 7 } `,
	`{"type":"ack","id":"m\u00321.4","seq":7}`,
	`{"TYPE":"ack","Seq":7}`,
	`{"type":"event","event":{"seq":1},"event":{"kind":"chat"}}`,
	`{"type":"event","event":null,"seq":01}`,
	`{"type":"x","extra":[1,-2.5e-3,{"a":[]},null,true,"s"],"seq":18446744073709551615}`,
	`{"type":"x","seq":-1}`, `{"type":"x","n":1.}`, `{"type":"x"}x`, `[]`, `{`, ``,
}

// TestDecodeMsgMatchesEncodingJSON: the fast decoder gives what encoding/json gives,
// and takes the frames of every move itself.
func TestDecodeMsgMatchesEncodingJSON(t *testing.T) {
	for _, s := range decodeSeeds {
		t.Run(s, func(t *testing.T) { checkDecode(t, []byte(s)) })
	}
	for _, s := range decodeSeeds[:8] {
		var m inMsg
		assert.True(t, fastDecode([]byte(s), &m), "not on the fast path: %s", s)
	}
}

func FuzzDecodeMsg(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecode(t, data) })
}

func checkDecode(t *testing.T, data []byte) {
	var want, got inMsg
	werr := json.Unmarshal(data, &want)
	gerr := decodeMsg(data, &got)
	if werr != nil {
		require.Error(t, gerr)
		return
	}
	require.NoError(t, gerr)
	assert.Equal(t, want, got)
}

func BenchmarkDecodeMsg(b *testing.B) {
	data := []byte(decodeSeeds[0])
	for _, bc := range []struct {
		name string
		f    func([]byte, *inMsg) error
	}{
		{"fast", decodeMsg},
		{"encoding-json", func(d []byte, m *inMsg) error { *m = inMsg{}; return json.Unmarshal(d, m) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var m inMsg
			for b.Loop() {
				if err := bc.f(data, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestMoveFrame(t *testing.T) {
	var m struct {
		Type, ID, Point string
		Ply             int
	}
	require.NoError(t, json.Unmarshal(moveFrame(3, 41, "h8"), &m))
	assert.Equal(t, "move", m.Type)
	assert.Equal(t, "m3.41", m.ID)
	assert.Equal(t, 41, m.Ply)
	assert.Equal(t, "h8", m.Point)
	g, p, ok := parseMoveID(m.ID)
	assert.True(t, ok)
	assert.Equal(t, [2]int{3, 41}, [2]int{g, p})
	for _, bad := range []string{"", "m", "m1", "x1.2", "m1.", "m.2", "m1.2.3", "r1"} {
		_, _, ok := parseMoveID(bad)
		assert.False(t, ok, bad)
	}
}
