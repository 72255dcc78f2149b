// Package bench builds the classroom node-count table: the baseline's plain minimax,
// alpha-beta, alpha-beta with move ordering and with a transposition table, and the
// full engine, all at the same depth on fixed positions.
package bench

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
)

// Positions are the fixed bench positions (15x15 freestyle), early middle games where
// the candidate count is that of a classroom exercise.
var Positions = []string{
	"h8 i9 j7",
	"h8 h9 i7 g9",
	"h8 i8 i7 g9 j9",
	"h8 g7 i9 j10 g9 i7",
}

// Row is one line of the table.
type Row struct {
	Position string
	Method   string
	Depth    int
	Nodes    uint64
	Time     time.Duration
	Move     engine.Point
	Value    string
	SameMove bool // same move as plain minimax
	SameVal  bool // same value as plain minimax (baseline rows only)
}

// Config of a bench run.
type Config struct {
	Depth     int // plies for every method
	Positions []string
	Engine    bool // include the full engine
}

// Run runs the table; progress (optional) is called after each row.
func Run(ctx context.Context, cfg Config, progress func(Row)) ([]Row, error) {
	if len(cfg.Positions) == 0 {
		cfg.Positions = Positions
	}
	var rows []Row
	for _, pos := range cfg.Positions {
		ms, err := engine.ParseMoves(pos, 15)
		if err != nil {
			return nil, err
		}
		b, err := engine.BoardFromMoves(15, engine.Freestyle, ms)
		if err != nil {
			return nil, err
		}
		var ref *baseline.SearchResult
		for _, mode := range []baseline.Mode{baseline.ModeMinimax, baseline.ModeAlphaBeta, baseline.ModeOrdered, baseline.ModeOrderedTT} {
			row := Row{Position: pos, Method: mode.String(), Depth: cfg.Depth}
			res, err := baseline.Search(ctx, b, baseline.Options{Mode: mode, Depth: cfg.Depth})
			if err != nil {
				return rows, err
			}
			row.Nodes, row.Time, row.Move, row.Value = res.Nodes, res.Elapsed, res.Move, fmt.Sprint(res.Value)
			if ref == nil {
				r := res
				ref = &r
			}
			row.SameMove, row.SameVal = res.Move == ref.Move, res.Value == ref.Value
			rows = append(rows, row)
			if progress != nil {
				progress(row)
			}
		}
		if cfg.Engine {
			e := engine.New(engine.Options{})
			start := time.Now()
			res := e.Search(ctx, b, engine.Limits{Depth: cfg.Depth}, nil)
			row := Row{Position: pos, Method: "engine", Depth: res.Depth, Nodes: res.Nodes, Time: time.Since(start),
				Move: res.Move, Value: fmt.Sprint(res.Score), SameMove: res.Move == ref.Move}
			rows = append(rows, row)
			if progress != nil {
				progress(row)
			}
		}
	}
	return rows, nil
}

// Print writes the table.
func Print(w io.Writer, rows []Row) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "position\tmethod\tdepth\tnodes\ttime\tmove\tvalue\tsame move\tsame value\t")
	for _, r := range rows {
		sv := yes(r.SameVal)
		if r.Method == "engine" {
			sv = "n/a"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%v\t%s\t%s\t%s\t%s\t\n", r.Position, r.Method, r.Depth, r.Nodes,
			r.Time.Round(time.Millisecond), r.Move, r.Value, yes(r.SameMove), sv)
	}
	tw.Flush()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
