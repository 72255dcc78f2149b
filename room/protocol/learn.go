package protocol

import (
	"bytes"
	"encoding/json"
)

// Limits of the classroom endpoints (POST /api/learn/compare and /api/learn/tree).
const (
	LearnMinDepth     = 2
	LearnMaxDepth     = 4 // compare
	LearnMaxTreeDepth = 3 // tree
	LearnMaxWidth     = 6 // tree: candidates kept per node
	LearnMaxMoves     = 200
)

// LearnRequest is the body of POST /api/learn/compare, /api/learn/tree and
// /api/learn/eval: a position as its move list in renju notation ("h8i9j7"), its rule
// and size, the search depth (not for eval), and (tree only) how many of the
// best-ordered candidates each node searches.
type LearnRequest struct {
	Moves string `json:"moves"`
	Rule  string `json:"rule"`  // freestyle (default), standard, renju
	Size  int    `json:"size"`  // 15 (default) to 20
	Depth int    `json:"depth"` // 2..4 (compare), 2..3 (tree)
	Width int    `json:"width"` // tree: 1..6 (default 3); ignored by compare
}

// DecodeLearnRequest decodes and checks the shape of a classroom request (the position
// itself is checked when it is played out). maxDepth is LearnMaxDepth or
// LearnMaxTreeDepth, or 0 for eval, which takes no depth. Refusals carry CodeBadJSON or
// CodeBadRequest.
func DecodeLearnRequest(data []byte, maxDepth int) (LearnRequest, error) {
	var r LearnRequest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return LearnRequest{}, Errorf(CodeBadJSON, "invalid JSON body: %v", err)
	}
	if dec.More() {
		return LearnRequest{}, Errorf(CodeBadJSON, "trailing data after the JSON body")
	}
	if r.Rule == "" {
		r.Rule = "freestyle"
	}
	if r.Size == 0 {
		r.Size = 15
	}
	if r.Width == 0 {
		r.Width = 3
	}
	switch {
	case r.Rule != "freestyle" && r.Rule != "standard" && r.Rule != "renju":
		return LearnRequest{}, Errorf(CodeBadRequest, "rule must be freestyle, standard or renju")
	case r.Size < 15 || r.Size > 20:
		return LearnRequest{}, Errorf(CodeBadRequest, "size must be 15 to 20")
	case maxDepth == 0 && r.Depth != 0:
		return LearnRequest{}, Errorf(CodeBadRequest, "depth is not used here")
	case maxDepth > 0 && (r.Depth < LearnMinDepth || r.Depth > maxDepth):
		return LearnRequest{}, Errorf(CodeBadRequest, "depth must be %d to %d", LearnMinDepth, maxDepth)
	case r.Width < 1 || r.Width > LearnMaxWidth:
		return LearnRequest{}, Errorf(CodeBadRequest, "width must be 1 to %d", LearnMaxWidth)
	case len(r.Moves) > 4*LearnMaxMoves:
		return LearnRequest{}, Errorf(CodeBadRequest, "at most %d moves", LearnMaxMoves)
	}
	return r, nil
}

// LearnMode is one row of the comparison: one search algorithm on the position.
type LearnMode struct {
	Mode     string  `json:"mode"` // minimax, alpha-beta, alpha-beta+ordering, alpha-beta+ordering+TT
	Nodes    uint64  `json:"nodes"`
	TimeMS   float64 `json:"time_ms"`
	Complete bool    `json:"complete"`          // false: stopped at a cap, Move and Value are absent
	Stopped  string  `json:"stopped,omitempty"` // "nodes" or "time" when not complete
	Move     string  `json:"move,omitempty"`
	Value    *int64  `json:"value,omitempty"` // side to move's view, patterns x10, wins ±win
}

// LearnCompare is the answer of POST /api/learn/compare.
type LearnCompare struct {
	Depth     int         `json:"depth"`
	ToMove    string      `json:"to_move"` // black or white
	Win       int64       `json:"win"`     // the value of a won position (minus plies to it)
	NodeCap   uint64      `json:"node_cap"`
	TimeCapMS int64       `json:"time_cap_ms"`
	Modes     []LearnMode `json:"modes"`
}

// LearnNode is one node of a recorded alpha-beta search. Values are from the root
// player's view (the root player maximises); Alpha and Beta are the window at entry.
type LearnNode struct {
	Move     string       `json:"move,omitempty"` // absent at the root
	Max      bool         `json:"max"`            // the root player is to move here
	Alpha    int64        `json:"alpha"`
	Beta     int64        `json:"beta"`
	Value    int64        `json:"value"`
	Leaf     bool         `json:"leaf,omitempty"`
	Terminal bool         `json:"terminal,omitempty"` // the move ended the game
	Best     int          `json:"best"`               // index of the best child, -1 at leaves
	Cut      bool         `json:"cut,omitempty"`      // alpha >= beta with candidates left
	CutBy    string       `json:"cut_by,omitempty"`   // "beta" (max node) or "alpha" (min node)
	Pruned   []string     `json:"pruned,omitempty"`   // the candidates never searched
	Children []*LearnNode `json:"children,omitempty"`
}

// LearnTree is the answer of POST /api/learn/tree.
type LearnTree struct {
	Depth  int        `json:"depth"`
	Width  int        `json:"width"`
	ToMove string     `json:"to_move"`
	Win    int64      `json:"win"`
	Nodes  int        `json:"nodes"`
	Root   *LearnNode `json:"root"`
}

// LearnPattern is one scored run of stones of the classroom evaluation.
type LearnPattern struct {
	Color  string   `json:"color"` // black or white
	Stones []string `json:"stones"`
	Open   int      `json:"open"` // open ends: 0, 1 or 2
	Kind   string   `json:"kind"` // five, open_four, four, open_three, closed_three, open_two, closed_two
	Score  int64    `json:"score"`
}

// LearnEval is the answer of POST /api/learn/eval: the classroom evaluation of the
// position pattern by pattern, each colour's total and the value from the side to
// move's view (own total ×10 minus the opponent's ×12).
type LearnEval struct {
	ToMove   string         `json:"to_move"`
	Black    int64          `json:"black"`
	White    int64          `json:"white"`
	Value    int64          `json:"value"`
	Weights  map[string]int `json:"weights"` // the pattern table
	Patterns []LearnPattern `json:"patterns"`
}
