package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestDecode(t *testing.T) {
	ply := func(n int) *int { return &n }
	tests := []struct {
		name, in string
		code     string    // "" when accepted
		want     ClientMsg // the decoded message (for refusals: the id kept for the reply)
	}{
		{name: "hello", in: `{"type":"hello","token":"abc","last_seq":7}`, want: ClientMsg{Type: TypeHello, Token: "abc", LastSeq: 7}},
		{name: "anonymous hello", in: ` {"type":"hello"} `, want: ClientMsg{Type: TypeHello}},
		{name: "move", in: `{"type":"move","id":"c1","ply":0,"point":"H8"}`, want: ClientMsg{Type: TypeMove, ID: "c1", Ply: ply(0), Point: "h8"}},
		{name: "move at the last ply", in: `{"type":"move","ply":400,"point":"t20"}`, want: ClientMsg{Type: TypeMove, Ply: ply(MaxPly), Point: "t20"}},
		{name: "move beyond the last ply", in: `{"type":"move","id":"m","ply":401,"point":"h8"}`, code: CodeBadRequest, want: ClientMsg{Type: TypeMove, ID: "m", Ply: ply(401), Point: "h8"}},
		{name: "move without ply", in: `{"type":"move","point":"h8"}`, code: CodeBadRequest, want: ClientMsg{Type: TypeMove, Point: "h8"}},
		{name: "move negative ply", in: `{"type":"move","ply":-1,"point":"h8"}`, code: CodeBadRequest, want: ClientMsg{Type: TypeMove, Ply: ply(-1), Point: "h8"}},
		{name: "move fractional ply", in: `{"type":"move","ply":1.5,"point":"h8"}`, code: CodeBadJSON},
		{name: "move without point", in: `{"type":"move","ply":1}`, code: CodeOffBoard, want: ClientMsg{Type: TypeMove, Ply: ply(1)}},
		{name: "move empty point", in: `{"type":"move","ply":1,"point":""}`, code: CodeOffBoard, want: ClientMsg{Type: TypeMove, Ply: ply(1)}},
		{name: "move long point", in: `{"type":"move","ply":1,"point":"h8888"}`, code: CodeOffBoard, want: ClientMsg{Type: TypeMove, Ply: ply(1), Point: "h8888"}},
		{name: "sit", in: `{"type":"sit","color":"white"}`, want: ClientMsg{Type: TypeSit, Color: "white"}},
		{name: "sit bad colour", in: `{"type":"sit","color":"red"}`, code: CodeBadRequest, want: ClientMsg{Type: TypeSit, Color: "red"}},
		{name: "resign", in: `{"type":"resign","id":"r"}`, want: ClientMsg{Type: TypeResign, ID: "r"}},
		{name: "hint", in: `{"type":"hint"}`, want: ClientMsg{Type: TypeHint}},
		{name: "choose black", in: `{"type":"choose","id":"o1","choice":"black"}`, want: ClientMsg{Type: TypeChoose, ID: "o1", Choice: ChoiceBlack}},
		{name: "choose place2", in: `{"type":"choose","choice":"place2"}`, want: ClientMsg{Type: TypeChoose, Choice: ChoicePlace2}},
		{name: "choose without choice", in: `{"type":"choose","id":"o2"}`, code: CodeBadRequest, want: ClientMsg{Type: TypeChoose, ID: "o2"}},
		{name: "choose bad choice", in: `{"type":"choose","choice":"Black"}`, code: CodeBadRequest, want: ClientMsg{Type: TypeChoose, Choice: "Black"}},
		{name: "choose wrong type", in: `{"type":"choose","choice":1}`, code: CodeBadJSON},
		{name: "chat trimmed", in: `{"type":"chat","text":"  gg  "}`, want: ClientMsg{Type: TypeChat, Text: "gg"}},
		{name: "chat empty", in: `{"type":"chat","text":"   "}`, code: CodeBadRequest, want: ClientMsg{Type: TypeChat}},
		{name: "chat 300 runes", in: `{"type":"chat","text":"` + strings.Repeat("好", 300) + `"}`, want: ClientMsg{Type: TypeChat, Text: strings.Repeat("好", 300)}},
		{name: "chat 301 runes", in: `{"type":"chat","text":"` + strings.Repeat("好", 301) + `"}`, code: CodeTooLarge, want: ClientMsg{Type: TypeChat, Text: strings.Repeat("好", 301)}},
		{name: "ping", in: `{"type":"ping","id":"p"}`, want: ClientMsg{Type: TypePing, ID: "p"}},
		{name: "malformed", in: `{"type":"move",`, code: CodeBadJSON},
		{name: "trailing data", in: `{"type":"resign"} {}`, code: CodeBadJSON},
		{name: "not an object", in: `[1,2]`, code: CodeBadJSON},
		{name: "null", in: `null`, code: CodeBadJSON},
		{name: "empty", in: ``, code: CodeBadJSON},
		{name: "wrong type field", in: `{"type":5}`, code: CodeBadJSON},
		{name: "wrong ply type keeps id", in: `{"type":"move","id":"x9","ply":"3","point":"h8"}`, code: CodeBadJSON, want: ClientMsg{ID: "x9"}},
		{name: "no type", in: `{"id":"1"}`, code: CodeBadRequest, want: ClientMsg{ID: "1"}},
		{name: "unknown type keeps id", in: `{"type":"teleport","id":"7"}`, code: CodeUnknownType, want: ClientMsg{Type: "teleport", ID: "7"}},
		{name: "room-internal kind", in: `{"type":"ai_move","point":"h8"}`, code: CodeUnknownType, want: ClientMsg{Type: "ai_move", Point: "h8"}},
		{name: "flag is not a client message", in: `{"type":"flag"}`, code: CodeUnknownType, want: ClientMsg{Type: "flag"}},
		{name: "leave is not a client message", in: `{"type":"leave"}`, code: CodeUnknownType, want: ClientMsg{Type: "leave"}},
		{name: "64-character id", in: `{"type":"ping","id":"` + strings.Repeat("x", 64) + `"}`, want: ClientMsg{Type: TypePing, ID: strings.Repeat("x", 64)}},
		{name: "long id dropped", in: `{"type":"ping","id":"` + strings.Repeat("x", 65) + `"}`, code: CodeBadRequest, want: ClientMsg{Type: TypePing}},
		{name: "long token", in: `{"type":"hello","token":"` + strings.Repeat("t", MaxTokenLen+1) + `"}`, code: CodeUnauthorized, want: ClientMsg{Type: TypeHello, Token: strings.Repeat("t", MaxTokenLen+1)}},
		{name: "oversized", in: `{"type":"chat","text":"` + strings.Repeat("x", MaxMessageBytes) + `"}`, code: CodeTooLarge},
		{name: "invalid utf8", in: "{\"type\":\"chat\",\"text\":\"\xff\"}", code: CodeBadJSON},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode([]byte(tc.in))
			require.Equal(t, tc.code, Code(err), "%v", err)
			if err != nil {
				var e *Error
				require.ErrorAs(t, err, &e)
				require.NotEmpty(t, e.Message)
			}
			require.Equal(t, tc.want, m)
		})
	}
}

func TestIsRoomCommand(t *testing.T) {
	for typ := range clientTypes {
		require.Equal(t, typ != TypeHello && typ != TypePing, IsRoomCommand(typ), typ)
	}
	require.False(t, IsRoomCommand("ai_move"))
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"type":"hello","token":"abc","last_seq":7}`, `{"type":"move","id":"c1","ply":0,"point":"h8"}`,
		`{"type":"chat","text":"hi"}`, `{"type":"sit","color":"black"}`, `{"type":"resign"}`, `{`, `[]`, `null`,
		`{"type":"move","ply":1e3,"point":"a1"}`, `{"type":"ping","id":"\u0000"}`, `{"type":"ai_move"}`,
		`{"type":"choose","choice":"place2"}`, `{"type":"choose","choice":"white","id":"c"}`, `{"type":"choose"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data)
		require.LessOrEqual(t, len(m.ID), MaxIDLen)
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.True(t, KnownCode(e.Code), e.Code)
			require.NotEqual(t, CodeInternal, e.Code)
			return
		}
		require.True(t, clientTypes[m.Type], m.Type)
		switch m.Type {
		case TypeMove:
			require.NotNil(t, m.Ply)
			require.GreaterOrEqual(t, *m.Ply, 0)
			require.LessOrEqual(t, *m.Ply, MaxPly)
			require.NotEmpty(t, m.Point)
			require.Equal(t, strings.ToLower(m.Point), m.Point)
		case TypeChat:
			require.True(t, utf8.ValidString(m.Text))
			require.NotEmpty(t, m.Text)
			require.LessOrEqual(t, utf8.RuneCountInString(m.Text), MaxChatRunes)
		case TypeSit:
			require.Contains(t, []string{"black", "white"}, m.Color)
		case TypeChoose:
			require.Contains(t, []string{ChoiceBlack, ChoiceWhite, ChoicePlace2}, m.Choice)
		}
		// What is accepted re-encodes and decodes to the same message.
		b, jerr := json.Marshal(m)
		require.NoError(t, jerr)
		m2, err2 := Decode(b)
		require.NoError(t, err2)
		require.Equal(t, m, m2)
	})
}

func BenchmarkDecodeMove(b *testing.B) {
	frame := []byte(`{"type":"move","id":"c42","ply":17,"point":"h8"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(frame); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDecodeLobby(t *testing.T) {
	for _, c := range []struct {
		in   string
		code string
		want LobbyMsg
	}{
		{`{"type":"hello","token":"t"}`, "", LobbyMsg{Type: "hello", Token: "t"}},
		{`{"type":"seek","id":"1","clock":"3+2","rated":true}`, "", LobbyMsg{Type: "seek", ID: "1", Rule: "freestyle", Clock: "3+2", Rated: true}},
		{`{"type":"seek","rule":"renju","clock":"5+3"}`, "", LobbyMsg{Type: "seek", Rule: "renju", Clock: "5+3"}},
		{`{"type":"cancel","id":"c"}`, "", LobbyMsg{Type: "cancel", ID: "c"}},
		{`{"type":"ping"}`, "", LobbyMsg{Type: "ping"}},
		{`{"type":"seek"}`, CodeBadRequest, LobbyMsg{}},
		{`{"type":"seek","clock":"123456789"}`, CodeBadRequest, LobbyMsg{}},
		{`{"type":"move","ply":0,"point":"h8"}`, CodeUnknownType, LobbyMsg{}},
		{`{"type":"seek","clock":3}`, CodeBadJSON, LobbyMsg{}},
		{`[]`, CodeBadJSON, LobbyMsg{}},
		{`{"id":"x"}`, CodeBadRequest, LobbyMsg{}},
		{`{"type":"hello","token":"` + strings.Repeat("t", MaxTokenLen+1) + `"}`, CodeUnauthorized, LobbyMsg{}},
	} {
		m, err := DecodeLobby([]byte(c.in))
		if c.code != "" {
			require.Equal(t, c.code, Code(err), c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.want, m, c.in)
	}
	_, err := DecodeLobby(make([]byte, MaxMessageBytes+1))
	require.Equal(t, CodeTooLarge, Code(err))
}

func FuzzDecodeLobby(f *testing.F) {
	for _, s := range []string{`{"type":"seek","clock":"3+2","rule":"renju","rated":true}`,
		`{"type":"cancel","id":"x"}`, `{"type":"hello","token":"abc"}`, `{"id":1}`, "\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeLobby(data)
		if err != nil {
			var e *Error
			require.ErrorAs(t, err, &e)
			require.True(t, KnownCode(e.Code))
			require.LessOrEqual(t, len(m.ID), MaxIDLen)
			return
		}
		require.True(t, lobbyTypes[m.Type])
		if m.Type == TypeSeek {
			require.NotEmpty(t, m.Clock)
			require.NotEmpty(t, m.Rule)
		}
	})
}
