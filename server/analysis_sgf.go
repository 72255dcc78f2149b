package server

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/analysis"
)

// analysisSGF writes the game with the analysis as comments: on each move its
// evaluation, its mark and the engine's choice with its line.
func analysisSGF(snap room.Snapshot, res analysis.Result) []byte {
	size := snap.Settings.Size
	var b bytes.Buffer
	sgfHeader(&b, size, snap.Settings.Rule, fmt.Sprintf("%s game %d analysis", snap.ID, snap.Game), snap.Black, snap.White)
	if r := sgfResult(snap.Result, snap.Reason); r != "" {
		fmt.Fprintf(&b, "RE[%s]", r)
	}
	if res.BudgetMS > 0 {
		fmt.Fprintf(&b, "GC[Engine analysis, %d ms per position]", res.BudgetMS)
	}
	for i, m := range res.Moves {
		p, err := engine.ParsePoint(m, size)
		if err != nil {
			continue
		}
		sgfMove(&b, i, p, size)
		if i < len(res.Positions) {
			fmt.Fprintf(&b, "C[%s]", sgfText(moveComment(res, i)))
		}
	}
	b.WriteString(")\n")
	return b.Bytes()
}

var markText = map[string]string{
	analysis.MarkMistake:    "Mistake",
	analysis.MarkBlunder:    "Blunder",
	analysis.MarkMissedWin:  "Missed forced win",
	analysis.MarkUnanswered: "Threat left unanswered",
}

// moveComment describes move i: black's chances after it, its mark, and the engine's
// choice in the position before it.
func moveComment(res analysis.Result, i int) string {
	var parts []string
	if i+1 < len(res.Positions) {
		parts = append(parts, fmt.Sprintf("Black %.0f%%.", res.Positions[i+1].Black*100))
	}
	p := res.Positions[i]
	if t := markText[p.Mark]; t != "" {
		parts = append(parts, fmt.Sprintf("%s (%.0f%% lost).", t, p.Drop*100))
	}
	if f := p.Forced; f != nil {
		parts = append(parts, fmt.Sprintf("%s win for %s: %s.", strings.ToUpper(f.Kind), p.ToMove, strings.Join(nonEmpty(f.Line), " ")))
	}
	if p.Best != "" && p.Best != p.Played {
		parts = append(parts, fmt.Sprintf("Best %s (line %s).", p.Best, strings.Join(nonEmpty(p.PV), " ")))
	}
	return strings.Join(parts, " ")
}

func nonEmpty(ss []string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
