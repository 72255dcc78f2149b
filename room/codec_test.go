package room

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeCommand(t *testing.T) {
	tests := []struct {
		in   string
		code string
		want Command
	}{
		{`{"type":"move","id":"7","ply":4,"point":"h8"}`, "", Command{Kind: CmdMove, ID: "7", Ply: 4, Point: "h8"}},
		{`{"type":"sit","color":"white"}`, "", Command{Kind: CmdSit, Color: "white"}},
		{`{"type":"chat","text":"hello"}`, "", Command{Kind: CmdChat, Text: "hello"}},
		{`{"type":"resign"}`, "", Command{Kind: CmdResign}},
		{`{"type":"hint"}`, "", Command{Kind: CmdHint}},
		{`{"type":"move","ply":-1,"point":"h8"}`, "bad_request", Command{}},
		{`{"type":"move","ply":1}`, "bad_request", Command{}},
		{`{"type":"sit","color":"green"}`, "bad_request", Command{}},
		{`{"type":"chat","text":""}`, "bad_request", Command{}},
		{`{"type":"chat","text":"` + strings.Repeat("x", 301) + `"}`, "too_large", Command{}},
		{`{"type":"chat","text":"   "}`, "bad_request", Command{}},
		{`{"type":"ai_move","point":"h8"}`, "unknown_type", Command{}},
		{`{"type":"timeout"}`, "unknown_type", Command{}},
		{`{"type":"dance"}`, "unknown_type", Command{}},
		{`{"type":"move","ply":"4"}`, "bad_json", Command{}},
		{`{"type":`, "bad_json", Command{}},
		{`{"type":"resign"} {}`, "bad_json", Command{}},
		{`{"type":"resign","id":"` + strings.Repeat("i", 65) + `"}`, "bad_request", Command{}},
		{`{"type":"chat","text":"` + strings.Repeat("x", 5000) + `"}`, "too_large", Command{}},
	}
	for _, tt := range tests {
		c, err := DecodeCommand([]byte(tt.in))
		assert.Equal(t, tt.code, Code(err), "%s: %v", tt.in, err)
		if tt.code == "" {
			assert.Equal(t, tt.want, c)
		}
	}
}

func TestEventJSON(t *testing.T) {
	s := finished(t)
	_, first, _ := NewRoom("r1", s.Settings(), t0)
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
	assert.Equal(t, "unknown_type", Code(err))
	_, err = DecodeEvent([]byte(`{"seq":1,"kind":"chat","bogus":1}`))
	assert.Equal(t, "bad_json", Code(err))
}

func FuzzDecodeCommand(f *testing.F) {
	for _, s := range []string{`{"type":"move","id":"7","ply":4,"point":"h8"}`, `{"type":"sit","color":"black"}`,
		`{"type":"chat","text":"hi"}`, `{"type":"resign"}`, `{}`, `[]`, `null`, `{"type":"move","ply":1e9}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCommand(data)
		if err != nil {
			if Code(err) == "internal" {
				t.Fatalf("decode error without a client code: %v", err)
			}
			return
		}
		if !IsClientCommand(c.Kind) {
			t.Fatalf("accepted kind %q", c.Kind)
		}
		// Whatever decodes must be safe to apply: refused with a code or accepted.
		s := play(t, seated(t, nil), "h8")
		c.By = bob
		_, _, err = Apply(s, c, t0)
		if err != nil && Code(err) == "internal" {
			t.Fatalf("apply: %v", err)
		}
	})
}

func FuzzDecodeEvent(f *testing.F) {
	s := finished(f)
	_, first, _ := NewRoom("r1", s.Settings(), t0)
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
