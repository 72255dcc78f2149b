package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// GameRecord is one game of a room (GET /api/rooms/{id}/record?format=json): what a
// replay needs, without the room's live parts (clocks, offers, chat).
type GameRecord struct {
	Room     string        `json:"room"`
	Game     int           `json:"game"`
	Games    int           `json:"games"` // games the room has had so far
	Settings room.Settings `json:"settings"`
	Black    room.SeatInfo `json:"black"`
	White    room.SeatInfo `json:"white"`
	Moves    []string      `json:"moves"`
	// OpeningPlies is how many of Moves a swap/swap2 opening placed.
	OpeningPlies int      `json:"opening_plies,omitempty"`
	Result       string   `json:"result,omitempty"`
	Reason       string   `json:"reason,omitempty"`
	Line         []string `json:"line,omitempty"`
	room.GameSpan
}

// newGameRecord describes game st.Game() of a room that has had games games.
func newGameRecord(st room.State, games int, span room.GameSpan) GameRecord {
	res, reason, line := st.Result()
	moves := st.Moves()
	if moves == nil {
		moves = []string{}
	}
	return GameRecord{
		Room: st.ID(), Game: st.Game(), Games: max(games, st.Game()), Settings: st.Settings(),
		Black: st.Seat(engine.Black), White: st.Seat(engine.White), Moves: moves,
		OpeningPlies: st.OpeningPlies(), Result: res, Reason: reason, Line: line, GameSpan: span,
	}
}

// recordTypes are the record formats and their content types.
var recordTypes = map[string]string{
	"psq":  "text/plain; charset=utf-8",
	"sgf":  "application/x-go-sgf; charset=utf-8",
	"json": "application/json; charset=utf-8",
}

// formatRecord writes a game as PSQ (Piskvorky/Gomocup), SGF or JSON.
func formatRecord(rec GameRecord, format string) ([]byte, error) {
	if format == "json" {
		return json.Marshal(rec)
	}
	size := rec.Settings.Size
	moves := make([]engine.Point, 0, len(rec.Moves))
	for _, m := range rec.Moves {
		p, err := engine.ParsePoint(m, size)
		if err != nil {
			return nil, fmt.Errorf("server: record: move %q: %w", m, err)
		}
		moves = append(moves, p)
	}
	var b bytes.Buffer
	switch format {
	case "psq":
		// Piskvorky: x,y 1-based from the top-left corner, then the thinking time.
		fmt.Fprintf(&b, "Piskvorky %dx%d, 11:11, 0\r\n", size, size)
		for _, p := range moves {
			fmt.Fprintf(&b, "%d,%d,0\r\n", p.X+1, size-p.Y)
		}
		fmt.Fprintf(&b, "-1\r\n")
	case "sgf":
		sgfHeader(&b, size, rec.Settings.Rule, fmt.Sprintf("%s game %d", rec.Room, rec.Game), rec.Black, rec.White)
		if o := rec.Settings.Opening; o != "" && o != room.OpeningNone {
			// The moves are as played: under swap/swap2 the first stones were placed by
			// one player for both colours before the colours were chosen.
			fmt.Fprintf(&b, "GC[opening %s]", o)
		}
		if rec.StartedAt != 0 {
			fmt.Fprintf(&b, "DT[%s]", time.UnixMilli(rec.StartedAt).UTC().Format(time.DateOnly))
		}
		if r := sgfResult(rec.Result, rec.Reason); r != "" {
			fmt.Fprintf(&b, "RE[%s]", r)
		}
		for i, p := range moves {
			sgfMove(&b, i, p, size)
		}
		b.WriteString(")\n")
	default:
		return nil, protocol.Errorf(protocol.CodeBadRequest, `"format" must be psq, sgf or json`)
	}
	return b.Bytes(), nil
}

// sgfHeader writes an SGF game's root node up to the players (the records and the
// analysis export share it).
func sgfHeader(b *bytes.Buffer, size int, rule, name string, black, white room.SeatInfo) {
	fmt.Fprintf(b, "(;FF[4]GM[4]CA[UTF-8]AP[Gomoku Arena]SZ[%d]RU[%s]GN[%s]", size, rule, sgfText(name))
	fmt.Fprintf(b, "PB[%s]PW[%s]", sgfText(seatName(black)), sgfText(seatName(white)))
}

// sgfMove writes move i (black on even i) as an SGF node; SGF rows count from the top.
func sgfMove(b *bytes.Buffer, i int, p engine.Point, size int) {
	c := "B"
	if i%2 == 1 {
		c = "W"
	}
	fmt.Fprintf(b, "\n;%s[%c%c]", c, 'a'+p.X, 'a'+(size-1-p.Y))
}

func seatName(s room.SeatInfo) string {
	switch {
	case s.Player != nil:
		return s.Player.Name
	case s.Spec.Kind == room.AI:
		return "AI " + s.Spec.Level
	case s.Spec.Kind == room.Engine:
		return s.Spec.Engine
	}
	return "?"
}

func sgfText(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		if r == ']' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func sgfResult(result, reason string) string {
	switch result {
	case "black", "white":
		r := "B+"
		if result == "white" {
			r = "W+"
		}
		switch reason {
		case "resign":
			return r + "R"
		case "timeout":
			return r + "T"
		case "abandoned", "forfeit":
			return r + "F"
		}
		return r
	case "draw":
		return "0"
	case "aborted":
		return "Void"
	}
	return ""
}
