package server

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestDecodeClient(t *testing.T) {
	tests := []struct {
		name, in string
		code     string
		check    func(t *testing.T, m ClientMsg)
	}{
		{name: "hello", in: `{"type":"hello","token":"abc","last_seq":7}`, check: func(t *testing.T, m ClientMsg) {
			require.Equal(t, "abc", m.Token)
			require.EqualValues(t, 7, m.LastSeq)
		}},
		{name: "move", in: `{"type":"move","id":"c1","ply":0,"point":"H8"}`, check: func(t *testing.T, m ClientMsg) {
			require.Equal(t, "h8", m.Point)
			require.Equal(t, 0, *m.Ply)
			require.Equal(t, "c1", m.ID)
		}},
		{name: "move without ply", in: `{"type":"move","point":"h8"}`, code: CodeBadRequest},
		{name: "move negative ply", in: `{"type":"move","ply":-1,"point":"h8"}`, code: CodeBadRequest},
		{name: "move without point", in: `{"type":"move","ply":1}`, code: CodeBadRequest},
		{name: "move long point", in: `{"type":"move","ply":1,"point":"h8888"}`, code: CodeBadRequest},
		{name: "sit", in: `{"type":"sit","color":"white"}`},
		{name: "sit bad colour", in: `{"type":"sit","color":"red"}`, code: CodeBadRequest},
		{name: "chat", in: `{"type":"chat","text":"  gg  "}`, check: func(t *testing.T, m ClientMsg) { require.Equal(t, "gg", m.Text) }},
		{name: "chat empty", in: `{"type":"chat","text":"   "}`, code: CodeBadRequest},
		{name: "chat long", in: `{"type":"chat","text":"` + strings.Repeat("好", 301) + `"}`, code: CodeTooLarge},
		{name: "chat 300 runes", in: `{"type":"chat","text":"` + strings.Repeat("好", 300) + `"}`},
		{name: "ping", in: `{"type":"ping","id":"p"}`},
		{name: "malformed", in: `{"type":"move",`, code: CodeBadJSON},
		{name: "not object", in: `[1,2]`, code: CodeBadJSON},
		{name: "empty", in: ``, code: CodeBadJSON},
		{name: "wrong type field", in: `{"type":5}`, code: CodeBadJSON},
		{name: "wrong ply type keeps id", in: `{"type":"move","id":"x9","ply":"3","point":"h8"}`, code: CodeBadJSON,
			check: func(t *testing.T, m ClientMsg) { require.Equal(t, "x9", m.ID) }},
		{name: "no type", in: `{"id":"1"}`, code: CodeBadRequest},
		{name: "unknown type", in: `{"type":"teleport","id":"7"}`, code: CodeUnknownType,
			check: func(t *testing.T, m ClientMsg) { require.Equal(t, "7", m.ID) }},
		{name: "long id", in: `{"type":"ping","id":"` + strings.Repeat("x", 65) + `"}`, code: CodeBadRequest},
		{name: "oversized", in: `{"type":"chat","text":"` + strings.Repeat("x", maxMessageSize) + `"}`, code: CodeTooLarge},
		{name: "invalid utf8", in: "{\"type\":\"chat\",\"text\":\"\xff\"}", code: CodeBadJSON},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := DecodeClient([]byte(tc.in))
			if tc.code == "" {
				require.Nil(t, err)
			} else {
				require.NotNil(t, err)
				require.Equal(t, tc.code, err.Code)
			}
			if tc.check != nil {
				tc.check(t, m)
			}
		})
	}
}

func FuzzDecodeClient(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","token":"abc","last_seq":7}`, `{"type":"move","id":"c1","ply":0,"point":"h8"}`,
		`{"type":"chat","text":"hi"}`, `{"type":"sit","color":"black"}`, `{"type":"resign"}`, `{`, `[]`, `null`,
		`{"type":"move","ply":1e3,"point":"a1"}`, `{"type":"ping","id":"\u0000"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeClient(data)
		if err != nil {
			require.NotEmpty(t, err.Code)
			require.Contains(t, knownCodes, err.Code)
			require.LessOrEqual(t, len(m.ID), maxClientIDLen)
			return
		}
		_, known := clientTypes[m.Type]
		require.True(t, known)
		require.LessOrEqual(t, len(m.ID), maxClientIDLen)
		switch m.Type {
		case TypeMove:
			require.NotNil(t, m.Ply)
			require.GreaterOrEqual(t, *m.Ply, 0)
			require.NotEmpty(t, m.Point)
		case TypeChat:
			require.True(t, utf8.ValidString(m.Text))
			require.LessOrEqual(t, utf8.RuneCountInString(m.Text), maxChatRunes)
			require.NotEmpty(t, m.Text)
		case TypeSit:
			require.Contains(t, []string{"black", "white"}, m.Color)
		}
		// What we accept re-encodes and decodes to the same message.
		b, jerr := json.Marshal(m)
		require.NoError(t, jerr)
		m2, err2 := DecodeClient(b)
		require.Nil(t, err2)
		require.Equal(t, m, m2)
	})
}
