package server

import (
	"encoding/json"
	"testing"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/stretchr/testify/require"
)

func TestParseCreateRoom(t *testing.T) {
	engines := map[string]string{"pela": "/usr/bin/pela"}
	tests := []struct {
		name, in string
		code     string
		check    func(t *testing.T, r NewRoom)
	}{
		{name: "defaults", in: `{}`, check: func(t *testing.T, r NewRoom) {
			require.Equal(t, "freestyle", r.Rule)
			require.Equal(t, 15, r.Size)
			require.True(t, r.Public && r.Takebacks && r.Chat)
			require.False(t, r.Hints)
			require.Contains(t, []string{"black", "white"}, r.OwnerColor)
			require.Equal(t, room.Human, r.Black.Kind)
			require.Equal(t, room.Human, r.White.Kind)
			require.EqualValues(t, 30_000, r.FirstMoveMS)
			require.EqualValues(t, 1_000, r.AIPaceMS)
			require.False(t, r.AutoAnalysis, "games between people are analysed on request only")
		}},
		{name: "auto analysis against the AI", in: `{"me":"black","opponent":{"kind":"ai"}}`,
			check: func(t *testing.T, r NewRoom) { require.True(t, r.AutoAnalysis) }},
		{name: "auto analysis against an engine", in: `{"me":"white","opponent":{"kind":"engine","engine":"pela"}}`,
			check: func(t *testing.T, r NewRoom) { require.True(t, r.AutoAnalysis) }},
		{name: "auto analysis off", in: `{"me":"black","opponent":{"kind":"ai"},"auto_analysis":false}`,
			check: func(t *testing.T, r NewRoom) { require.False(t, r.AutoAnalysis) }},
		{name: "auto analysis of an AI show on request", in: `{"me":"none","black":{"kind":"ai"},"white":{"kind":"ai"},"auto_analysis":true}`,
			check: func(t *testing.T, r NewRoom) { require.True(t, r.AutoAnalysis) }},
		{name: "no auto analysis of an AI show by default", in: `{"me":"none","black":{"kind":"ai"},"white":{"kind":"ai"}}`,
			check: func(t *testing.T, r NewRoom) { require.False(t, r.AutoAnalysis) }},
		{name: "auto analysis between people", in: `{"auto_analysis":true}`, code: protocol.CodeBadRequest},
		{name: "first-move time", in: `{"first_move_ms":60000}`, check: func(t *testing.T, r NewRoom) { require.EqualValues(t, 60_000, r.FirstMoveMS) }},
		{name: "first-move time too short", in: `{"first_move_ms":5000}`, code: protocol.CodeBadRequest},
		{name: "first-move time too long", in: `{"first_move_ms":600001}`, code: protocol.CodeBadRequest},
		{name: "first-move time 0", in: `{"first_move_ms":0}`, code: protocol.CodeBadRequest},
		{name: "AI pace", in: `{"me":"none","black":{"kind":"ai"},"white":{"kind":"ai"},"ai_pace_ms":2500}`,
			check: func(t *testing.T, r NewRoom) { require.EqualValues(t, 2_500, r.AIPaceMS) }},
		{name: "AI pace off", in: `{"me":"none","black":{"kind":"ai"},"white":{"kind":"ai"},"ai_pace_ms":0}`,
			check: func(t *testing.T, r NewRoom) { require.Zero(t, r.AIPaceMS) }},
		{name: "AI pace negative", in: `{"ai_pace_ms":-1}`, code: protocol.CodeBadRequest},
		{name: "AI pace too long", in: `{"ai_pace_ms":30001}`, code: protocol.CodeBadRequest},
		{name: "vs AI as white", in: `{"rule":"renju","me":"white","opponent":{"kind":"ai","level":"novice"},"public":false}`,
			check: func(t *testing.T, r NewRoom) {
				require.Equal(t, "white", r.OwnerColor)
				require.Equal(t, room.SeatSpec{Kind: room.AI, Level: "novice"}, r.Black)
				require.False(t, r.Public)
				require.True(t, r.Hints)
			}},
		{name: "AI level default", in: `{"me":"black","opponent":{"kind":"ai"}}`,
			check: func(t *testing.T, r NewRoom) { require.Equal(t, "intermediate", r.White.Level) }},
		{name: "engine", in: `{"me":"black","opponent":{"kind":"engine","engine":"pela"}}`,
			check: func(t *testing.T, r NewRoom) { require.Equal(t, "pela", r.White.Engine) }},
		{name: "unknown engine", in: `{"me":"black","opponent":{"kind":"engine","engine":"x"}}`, code: protocol.CodeNoSuchEngine},
		{name: "ai vs ai", in: `{"me":"none","black":{"kind":"ai","level":"beginner"},"white":{"kind":"ai","level":"master"}}`,
			check: func(t *testing.T, r NewRoom) {
				require.Empty(t, r.OwnerColor)
				require.Equal(t, "master", r.White.Level)
			}},
		{name: "none needs machines", in: `{"me":"none","black":{"kind":"human"},"white":{"kind":"ai","level":"master"}}`, code: protocol.CodeBadRequest},
		{name: "none needs seats", in: `{"me":"none"}`, code: protocol.CodeBadRequest},
		{name: "seats without none", in: `{"me":"black","black":{"kind":"ai","level":"novice"}}`, code: protocol.CodeBadRequest},
		{name: "bad level", in: `{"opponent":{"kind":"ai","level":"god"}}`, code: protocol.CodeBadRequest},
		{name: "bad kind", in: `{"opponent":{"kind":"dog"}}`, code: protocol.CodeBadRequest},
		{name: "bad rule", in: `{"rule":"go"}`, code: protocol.CodeBadRequest},
		{name: "bad size", in: `{"size":9}`, code: protocol.CodeBadRequest},
		{name: "size 20", in: `{"size":20}`, check: func(t *testing.T, r NewRoom) { require.Equal(t, 20, r.Size) }},
		{name: "bad me", in: `{"me":"purple"}`, code: protocol.CodeBadRequest},
		{name: "clock", in: `{"time":{"base_ms":300000,"increment_ms":5000}}`,
			check: func(t *testing.T, r NewRoom) { require.EqualValues(t, 5000, r.Time.IncrementMS) }},
		{name: "increment without base", in: `{"time":{"increment_ms":5000}}`, code: protocol.CodeBadRequest},
		{name: "base too small", in: `{"time":{"base_ms":5}}`, code: protocol.CodeBadRequest},
		{name: "per move", in: `{"time":{"per_move_ms":30000}}`},
		{name: "per move negative", in: `{"time":{"per_move_ms":-1}}`, code: protocol.CodeBadRequest},
		{name: "unknown field", in: `{"colour":"black"}`, code: protocol.CodeBadJSON},
		{name: "malformed", in: `{"rule":`, code: protocol.CodeBadJSON},
		{name: "trailing", in: `{} {}`, code: protocol.CodeBadJSON},
		{name: "opening default", in: `{}`, check: func(t *testing.T, r NewRoom) { require.Equal(t, room.OpeningNone, r.Opening) }},
		{name: "swap2", in: `{"opening":"swap2","me":"white","opponent":{"kind":"ai","level":"novice"}}`,
			check: func(t *testing.T, r NewRoom) { require.Equal(t, room.OpeningSwap2, r.Opening) }},
		{name: "bad opening", in: `{"opening":"swap3"}`, code: protocol.CodeBadRequest},
		{name: "hints off", in: `{"opponent":{"kind":"ai","level":"novice"},"hints":false}`,
			check: func(t *testing.T, r NewRoom) { require.False(t, r.Hints) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseCreateRoom([]byte(tc.in), engines)
			if tc.code != "" {
				require.NotNil(t, err, "%+v", r)
				require.Equal(t, tc.code, protocol.Code(err), "%v", err)
				return
			}
			require.Nil(t, err)
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func FuzzParseCreateRoom(f *testing.F) {
	for _, s := range []string{`{}`, `{"rule":"renju","size":15,"time":{"base_ms":300000,"increment_ms":5000,"per_move_ms":0},"me":"black","opponent":{"kind":"ai","level":"master"},"public":true,"takebacks":true,"chat":true}`,
		`{"me":"none","black":{"kind":"ai","level":"beginner"},"white":{"kind":"engine","engine":"e"}}`, `{"size":-1}`, `{"time":null}`} {
		f.Add([]byte(s))
	}
	engines := map[string]string{"e": "cmd"}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := ParseCreateRoom(body, engines)
		if err != nil {
			require.True(t, protocol.KnownCode(protocol.Code(err)), "%v", err)
			return
		}
		require.Contains(t, []string{"freestyle", "standard", "renju"}, r.Rule)
		require.True(t, r.Size >= 15 && r.Size <= 20)
		require.True(t, r.Time.BaseMS >= 0 && r.Time.IncrementMS >= 0 && r.Time.PerMoveMS >= 0)
		for _, s := range []room.SeatSpec{r.Black, r.White} {
			require.Contains(t, []room.SeatKind{room.Human, room.AI, room.Engine}, s.Kind)
		}
		switch r.OwnerColor {
		case "black":
			require.Equal(t, room.Human, r.Black.Kind)
		case "white":
			require.Equal(t, room.Human, r.White.Kind)
		case "":
			require.NotEqual(t, room.Human, r.Black.Kind)
			require.NotEqual(t, room.Human, r.White.Kind)
		default:
			t.Fatalf("owner colour %q", r.OwnerColor)
		}
		_, jerr := json.Marshal(r)
		require.NoError(t, jerr)
	})
}
