package protocol

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// Puzzle trainer (docs/protocol.md, "Puzzles"): the objects of /api/puzzles.

// Puzzle is a puzzle as the trainer shows it: the position (moves from the empty
// board, the side to move wins by force), its kind and its rating.
type Puzzle struct {
	ID          string   `json:"id"`
	Rule        string   `json:"rule"`
	Size        int      `json:"size"`
	ToMove      string   `json:"to_move"` // black, white
	Moves       []string `json:"moves"`
	Category    string   `json:"category"`
	Source      string   `json:"source"` // shipped, mined
	Rating      float64  `json:"rating"`
	RD          float64  `json:"rd"`
	Provisional bool     `json:"provisional"`
	Plays       int      `json:"plays"`
	SolvedBy    int      `json:"solved_by"`
}

// PuzzleRating is a player's puzzle rating.
type PuzzleRating struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
}

// PuzzleView is the answer of GET /api/puzzles/next and GET /api/puzzles/{id}.
type PuzzleView struct {
	Puzzle Puzzle       `json:"puzzle"`
	Player PuzzleRating `json:"player"`
}

// PuzzleAttempt is the answer of POST /api/puzzles/{id}/attempts.
type PuzzleAttempt struct {
	Attempt string       `json:"attempt"`
	Rated   bool         `json:"rated"` // the player's first attempt of this puzzle
	Puzzle  Puzzle       `json:"puzzle"`
	Player  PuzzleRating `json:"player"`
}

// PuzzleRatingChange is the player's puzzle rating around a rated attempt's end.
type PuzzleRatingChange struct {
	Before      float64 `json:"before"`
	After       float64 `json:"after"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
}

// Results of a puzzle move.
const (
	PuzzleContinue = "continue"
	PuzzleSolved   = "solved"
	PuzzleWrong    = "wrong"
)

// PuzzleStep is the answer of POST /api/puzzles/attempts/{attempt}/moves.
type PuzzleStep struct {
	Result   string              `json:"result"`
	Reply    string              `json:"reply,omitempty"`
	Line     []string            `json:"line"`
	Solution []string            `json:"solution,omitempty"`
	Rating   *PuzzleRatingChange `json:"rating,omitempty"`
}

// PuzzleHint is the answer of POST /api/puzzles/attempts/{attempt}/hint.
type PuzzleHint struct {
	Hint string `json:"hint"`
}

// PuzzleSolution is the answer of POST /api/puzzles/attempts/{attempt}/solution: the
// winning line from the attempt's position (after Line).
type PuzzleSolution struct {
	Solution []string            `json:"solution"`
	Line     []string            `json:"line"`
	Rating   *PuzzleRatingChange `json:"rating,omitempty"`
}

// PuzzleMoveRequest is the body of POST /api/puzzles/attempts/{attempt}/moves.
type PuzzleMoveRequest struct {
	Move string `json:"move"`
}

// PuzzleMaxBody bounds the body of a puzzle move.
const PuzzleMaxBody = 256

var pointText = regexp.MustCompile(`^[a-z][0-9]{1,2}$`)

// DecodePuzzleMove decodes a puzzle move's body: {"move": "h8"} (a point in renju
// notation, case-insensitive; whether it is on the board is checked against the
// puzzle). Refusals carry CodeBadJSON, or CodeBadMove for a move that is no point.
func DecodePuzzleMove(data []byte) (PuzzleMoveRequest, error) {
	var r PuzzleMoveRequest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return PuzzleMoveRequest{}, Errorf(CodeBadJSON, `body must be {"move": "h8"}: %v`, err)
	}
	if dec.More() {
		return PuzzleMoveRequest{}, Errorf(CodeBadJSON, "trailing data after the JSON body")
	}
	r.Move = strings.ToLower(strings.TrimSpace(r.Move))
	if !pointText.MatchString(r.Move) {
		return PuzzleMoveRequest{}, Errorf(CodeBadMove, `"move" must be a point such as "h8"`)
	}
	return r, nil
}

// puzzleID is the grammar of puzzle and attempt ids.
var puzzleID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// ValidPuzzleID reports whether s can be a puzzle or attempt id (a path segment of
// /api/puzzles).
func ValidPuzzleID(s string) bool { return puzzleID.MatchString(s) }
