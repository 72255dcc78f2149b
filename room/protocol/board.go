package protocol

import (
	"net/url"
	"strconv"
	"time"
)

// Limits of the analysis board (GET /api/analysis/stream, docs/protocol.md "Analysis
// board") and of post-game analysis requests (POST /api/rooms/{id}/analysis). A
// client is the player of the request's bearer token, else (no token) its address.
// One board analysis searches one position for at most AnalysisMaxTime; a client runs
// at most AnalysisPerClient board analyses at once and spends at most AnalysisQuota of
// engine time per AnalysisQuotaWindow; it has at most AnalysisPerClient post-game
// analyses computing at once. A client address, whatever players use it, is the
// second line: AnalysisPerAddress of each at once, AnalysisAddressQuota per window.
// Following a post-game analysis (GET /api/rooms/{id}/analysis/stream) costs no engine
// time: a client has at most AnalysisStreamsPerClient such streams open, its address
// AnalysisStreamsPerAddress.
const (
	AnalysisMaxLines   = 3
	AnalysisMaxTime    = 30 * time.Second
	AnalysisPerClient  = 2
	AnalysisPerAddress = 6
	// AnalysisStreamsPerClient and AnalysisStreamsPerAddress cap open analysis streams.
	AnalysisStreamsPerClient  = 4
	AnalysisStreamsPerAddress = 16
	AnalysisQuota             = 5 * time.Minute
	AnalysisAddressQuota      = 15 * time.Minute
	AnalysisQuotaWindow       = time.Hour
	AnalysisMaxMoves          = 400
	AnalysisMaxImport         = 64 << 10 // bytes of a pasted record (POST /api/analysis/import)
)

// AnalysisRequest is a position of the analysis board, read from the query string of
// GET /api/analysis/position and /api/analysis/stream (the share link /analysis
// carries the same parameters): moves in packed renju notation, rule, size, and for
// the stream the seconds to analyse (1..30, default 30) and the lines to show (1..3,
// default 3).
type AnalysisRequest struct {
	Moves   string
	Rule    string
	Size    int
	Seconds int
	Lines   int
}

// DecodeAnalysisQuery checks the shape of an analysis board query (the moves are played
// out by the caller). Refusals carry CodeBadRequest.
func DecodeAnalysisQuery(q url.Values) (AnalysisRequest, error) {
	r := AnalysisRequest{Moves: q.Get("moves"), Rule: q.Get("rule"), Size: 15,
		Seconds: int(AnalysisMaxTime / time.Second), Lines: AnalysisMaxLines}
	for k := range q {
		switch k {
		case "moves", "rule", "size", "time", "lines":
		default:
			return AnalysisRequest{}, Errorf(CodeBadRequest, "unknown parameter %q", k)
		}
	}
	num := func(name string, v *int, lo, hi int) error {
		s := q.Get(name)
		if s == "" {
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			return Errorf(CodeBadRequest, "%s must be %d to %d", name, lo, hi)
		}
		*v = n
		return nil
	}
	if r.Rule == "" {
		r.Rule = "freestyle"
	}
	if r.Rule != "freestyle" && r.Rule != "standard" && r.Rule != "renju" {
		return AnalysisRequest{}, Errorf(CodeBadRequest, "rule must be freestyle, standard or renju")
	}
	if err := num("size", &r.Size, 15, 20); err != nil {
		return AnalysisRequest{}, err
	}
	if err := num("time", &r.Seconds, 1, int(AnalysisMaxTime/time.Second)); err != nil {
		return AnalysisRequest{}, err
	}
	if err := num("lines", &r.Lines, 1, AnalysisMaxLines); err != nil {
		return AnalysisRequest{}, err
	}
	if len(r.Moves) > 4*AnalysisMaxMoves {
		return AnalysisRequest{}, Errorf(CodeBadRequest, "at most %d moves", AnalysisMaxMoves)
	}
	return r, nil
}

// ForbiddenPoint is an empty point black may not play under renju, and why (the game
// snapshot's "forbidden" and the analysis board's position carry these).
type ForbiddenPoint struct {
	Point string `json:"point"` // renju notation, "h8"
	Kind  string `json:"kind"`  // double_three, double_four or overline
}

// AnalysisPosition is the answer of GET /api/analysis/position and the first event of
// a stream: the position played out, whose turn it is, its end if it is over and
// black's forbidden points under renju.
type AnalysisPosition struct {
	Moves     string           `json:"moves"`
	Rule      string           `json:"rule"`
	Size      int              `json:"size"`
	Ply       int              `json:"ply"`
	ToMove    string           `json:"to_move"`          // black or white
	Winner    string           `json:"winner,omitempty"` // black, white or draw when over
	Line      []string         `json:"line,omitempty"`   // the winning stones
	Forbidden []ForbiddenPoint `json:"forbidden"`
}

// AnalysisImport is the body of POST /api/analysis/import: a pasted record (a move
// string, PSQ or SGF) and the board size a move string is read for (default 15).
type AnalysisImport struct {
	Text string `json:"text"`
	Size int    `json:"size"`
}

// AnalysisImported answers POST /api/analysis/import: the record's format, board, rule
// (when the record names one) and moves in packed notation.
type AnalysisImported struct {
	Format string `json:"format"` // moves, psq or sgf
	Size   int    `json:"size"`
	Rule   string `json:"rule,omitempty"`
	Moves  string `json:"moves"`
}

// AnalysisLine is one of the best moves: its score for the side to move (centi-stones;
// Mate, when not 0, is the plies to a forced win, negative for a loss), the depth of
// its search and its principal variation from Move.
type AnalysisLine struct {
	Move  string   `json:"move"`
	Score int      `json:"score"`
	Mate  int      `json:"mate,omitempty"`
	Depth int      `json:"depth"`
	PV    []string `json:"pv"`
}

// AnalysisInfo is a progress event of the stream ("info"), and with Final its last
// ("done"): the lines best first and the work so far.
type AnalysisInfo struct {
	Depth     int            `json:"depth"` // of the best line
	Nodes     uint64         `json:"nodes"`
	NPS       uint64         `json:"nps"`
	ElapsedMS int64          `json:"elapsed_ms"`
	LimitMS   int64          `json:"limit_ms"`
	Lines     []AnalysisLine `json:"lines"`
	// Final events say why the analysis ended: "time" (its time ran out), "done"
	// (the search found nothing more: a proven or exhausted position), "quota" (the
	// client's engine time ran out).
	Stopped string `json:"stopped,omitempty"`
}

// AnalysisQueued is the "queued" event: every engine slot of the node is busy; the
// analysis starts when one frees (or ends with an analysis_busy error event).
type AnalysisQueued struct {
	Running int `json:"running"`
	Waiting int `json:"waiting"`
}
