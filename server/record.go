package server

import (
	"bytes"
	"fmt"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// formatRecord writes the current game of snap as PSQ (Piskvorky/Gomocup) or SGF.
func formatRecord(snap room.Snapshot, format string) ([]byte, error) {
	size := snap.Settings.Size
	moves := make([]engine.Point, 0, len(snap.Moves))
	for _, m := range snap.Moves {
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
		fmt.Fprintf(&b, "(;FF[4]GM[4]CA[UTF-8]AP[Gomoku Arena]SZ[%d]RU[%s]GN[%s game %d]", size, snap.Settings.Rule, snap.ID, snap.Game)
		fmt.Fprintf(&b, "PB[%s]PW[%s]", sgfText(seatName(snap.Black)), sgfText(seatName(snap.White)))
		if o := snap.Settings.Opening; o != "" && o != room.OpeningNone {
			// The moves are as played: under swap/swap2 the first stones were placed by
			// one player for both colours before the colours were chosen.
			fmt.Fprintf(&b, "GC[opening %s]", o)
		}
		if r := sgfResult(snap.Result, snap.Reason); r != "" {
			fmt.Fprintf(&b, "RE[%s]", r)
		}
		for i, p := range moves {
			c := "B"
			if i%2 == 1 {
				c = "W"
			}
			// SGF rows count from the top: a is the top row.
			fmt.Fprintf(&b, "\n;%s[%c%c]", c, 'a'+p.X, 'a'+(size-1-p.Y))
		}
		b.WriteString(")\n")
	default:
		return nil, protocol.Errorf(protocol.CodeBadRequest, `"format" must be psq or sgf`)
	}
	return b.Bytes(), nil
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
