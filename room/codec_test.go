package room

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

func TestEventJSON(t *testing.T) {
	s := finished(t)
	_, first, _ := NewState("r1", s.Settings(), t0)
	b, err := EncodeEvent(first)
	require.NoError(t, err)
	e, err := DecodeEvent(b)
	require.NoError(t, err)
	assert.Equal(t, first, e)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, "created", m["kind"])
	assert.Equal(t, "r1", m["room"])

	_, err = DecodeEvent([]byte(`{"seq":1,"kind":"explode"}`))
	assert.Equal(t, "unknown_type", protocol.Code(err))
	_, err = DecodeEvent([]byte(`{"seq":1,"kind":"chat","text":"hi"} {}`))
	assert.Equal(t, "bad_json", protocol.Code(err), "trailing data")
	_, err = DecodeEvent([]byte(`{"seq":1,"kind":"chat","text":`))
	assert.Equal(t, "bad_json", protocol.Code(err), "malformed")
}

// TestDecodeEventFromNewerNode: an event stored by a newer node, with fields this node
// does not know, still decodes (those fields dropped) and folds like the same event
// without them, so a rolling upgrade never stops a room from replaying or replicating.
func TestDecodeEventFromNewerNode(t *testing.T) {
	s := seated(t, nil)
	cur, err := EncodeEvent(Event{Seq: s.Seq() + 1, Kind: EvMove, At: t0.UnixMilli(), Game: 1, Color: "black", Point: "h8", Ply: 0})
	require.NoError(t, err)
	newer := append(cur[:len(cur)-1:len(cur)-1], `,"think_ms":1234,"annotation":{"glyph":"!"}}`...)
	want, err := DecodeEvent(cur)
	require.NoError(t, err)
	got, err := DecodeEvent(newer)
	require.NoError(t, err, "unknown fields of a newer node's event")
	assert.Equal(t, want, got)
	st, err := ReplayFrom(s, []Event{got})
	require.NoError(t, err)
	assert.Equal(t, 1, st.Ply())
}

// FuzzClientCommand applies whatever the protocol decoder accepts: it is refused with
// a client code or applied, never an internal error or a panic.
func FuzzClientCommand(f *testing.F) {
	for _, s := range []string{`{"type":"move","id":"7","ply":4,"point":"h8"}`, `{"type":"sit","color":"black"}`,
		`{"type":"chat","text":"hi"}`, `{"type":"resign"}`, `{"type":"move","ply":400,"point":"t20"}`,
		`{"type":"takeback_request"}`, `{"type":"claim_victory"}`, `{"type":"ai_move","point":"h8"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := protocol.Decode(data)
		if err != nil || !protocol.IsRoomCommand(m.Type) || m.Type == protocol.TypeHint {
			return
		}
		c := ClientCommand(m)
		c.By = bob
		s := play(t, seated(t, nil), "h8")
		_, _, err = Apply(s, c, t0)
		if err != nil && protocol.Code(err) == "internal" {
			t.Fatalf("apply %+v: %v", c, err)
		}
	})
}

func FuzzDecodeEvent(f *testing.F) {
	s := finished(f)
	_, first, _ := NewState("r1", s.Settings(), t0)
	b, _ := EncodeEvent(first)
	f.Add(b)
	f.Add([]byte(`{"seq":5,"kind":"move","at":1,"game":1,"color":"black","point":"h8","ply":0}`))
	f.Add([]byte(`{"seq":2,"kind":"game_over","result":"black","line":["h8"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEvent(data)
		if err != nil {
			return
		}
		b, err := EncodeEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		e2, err := DecodeEvent(b)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if e2.Seq != e.Seq || e2.Kind != e.Kind {
			t.Fatal("round trip changed the event")
		}
		// Folding an arbitrary event never panics.
		_, _ = Replay([]Event{first, e})
		_, _ = ReplayFrom(s, []Event{e})
	})
}
