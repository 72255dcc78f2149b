package puzzle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
)

// MineOptions bound Mine. Zero fields take the defaults.
type MineOptions struct {
	// MaxVCF is the most attacker moves (the five included) of a mined VCF (default 7).
	MaxVCF int
	// MaxVCT is the most attacker moves (the five included) of a mined VCT (default 5).
	MaxVCT int
	// Nodes is the solver budget of one position, its verification included (default
	// DefaultBudget). A position whose verification runs out of it is left out.
	Nodes uint64
}

// Mining defaults.
const (
	DefaultMineVCF = 7
	DefaultMineVCT = 5
)

// withDefaults returns o with its zero fields set to the defaults.
func (o MineOptions) withDefaults() MineOptions {
	if o.MaxVCF <= 0 {
		o.MaxVCF = DefaultMineVCF
	}
	if o.MaxVCT <= 0 {
		o.MaxVCT = DefaultMineVCT
	}
	if o.Nodes == 0 {
		o.Nodes = DefaultBudget
	}
	return o
}

// Mine returns the puzzles of a finished game: the positions where the side to move
// had a forced win, a VCF of at most MaxVCF attacker moves (category vcf) or else a
// VCT of at most MaxVCT (category vct), counted along the trainer's Solution against
// the best defence, which verifies it (every defence of every step searched).
//
// Left out: positions with a five point on either side (a win in one, or a four to
// block first: no puzzle), and positions where the same side already had a forced win
// at its previous turn (a win carried on, or carried on slowly, is the same puzzle:
// only the first position of a run is kept). Duplicates under CanonicalKey are
// dropped. Answers are the solver's exact set of VCF first moves for a vcf puzzle
// (what Verify recomputes; the solution's first move alone when that solver runs out
// of its SolveNodes) and the first move of the verified solution for a vct puzzle;
// the ID is "mined-" and the first twelve hex digits of the SHA-256 of the canonical
// key, the same for every game that reaches the position. moves must be legal from
// the empty board; a five ends the game. e must not be used by anyone else during the
// call.
func Mine(ctx context.Context, e *engine.Engine, rule engine.Rule, size int, moves []engine.Point, opts MineOptions) ([]Puzzle, error) {
	opts = opts.withDefaults()
	b, err := engine.NewBoard(size, rule)
	if err != nil {
		return nil, err
	}
	var out []Puzzle
	seen := map[string]bool{}
	hadWin := [3]bool{} // per colour: a forced win at its previous turn
	for i := 0; i <= len(moves) && !b.Outcome().Over; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		me := b.ToMove()
		p, win, err := minePosition(ctx, e, b, opts)
		switch {
		case errors.Is(err, ErrBudget) || errors.Is(err, ErrNoWin):
		case err != nil:
			return nil, err
		case win && !hadWin[me] && p.Category != "":
			if k := CanonicalKey(p); !seen[k] {
				seen[k] = true
				p.ID = "mined-" + keyHash(k)
				out = append(out, p)
			}
		}
		hadWin[me] = win
		if i == len(moves) {
			break
		}
		if err := b.Play(moves[i]); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, moves[i], err)
		}
	}
	return out, nil
}

// minePosition solves the position on b for the side to move: win reports a forced
// win of the engine's solvers; p is the puzzle when it fits the options (its
// Category empty otherwise).
func minePosition(ctx context.Context, e *engine.Engine, b *engine.Board, opts MineOptions) (Puzzle, bool, error) {
	me := b.ToMove()
	if len(WinningPoints(b, me)) > 0 {
		return Puzzle{}, true, nil // a win in one: no puzzle, but a win all the same
	}
	if len(WinningPoints(b, me.Opponent())) > 0 {
		return Puzzle{}, false, nil
	}
	t := &trainer{ctx: ctx, e: e, left: opts.Nodes, att: me, mode: Attack}
	w, ok, err := t.solve(b)
	if err != nil || !ok {
		return Puzzle{}, false, err
	}
	p := Puzzle{Category: VCF, Rule: b.Rule(), Size: b.Size(), ToMove: me, Moves: b.Moves()}
	if w.VCT {
		p.Category = VCT
	}
	t.limit = b.Ply() + w.Plies + 2*Slack
	sol, err := t.solution(b)
	if err != nil {
		return Puzzle{}, true, err
	}
	n := (len(sol) + 1) / 2
	if p.Category == VCF && n > opts.MaxVCF || p.Category == VCT && n > opts.MaxVCT {
		return Puzzle{}, true, nil
	}
	p.Answers = sol[:1]
	if p.Category == VCF {
		s := NewSolver()
		s.Limit = SolveNodes
		if ans := s.VCFFirstMoves(b, MaxVCF); !s.Exceeded && slices.Contains(ans, sol[0]) {
			p.Answers = ans
		}
	}
	p.Note = fmt.Sprintf("%s in %d moves, move %d of a game", strings.ToUpper(p.Category), n, b.Ply()+1)
	return p, true, nil
}

// symmetries are the eight maps of the square board onto itself: x' = a*x + b*y + c*(n-1)
// and likewise for y'.
var symmetries = [8][6]int{
	{1, 0, 0, 0, 1, 0}, {-1, 0, 1, 0, 1, 0}, {1, 0, 0, 0, -1, 1}, {-1, 0, 1, 0, -1, 1},
	{0, 1, 0, 1, 0, 0}, {0, -1, 1, 1, 0, 0}, {0, 1, 0, -1, 0, 1}, {0, -1, 1, -1, 0, 1},
}

// transform maps p by symmetry s on a board of size n.
func transform(s [6]int, p engine.Point, n int) engine.Point {
	return engine.Point{X: s[0]*p.X + s[1]*p.Y + s[2]*(n-1), Y: s[3]*p.X + s[4]*p.Y + s[5]*(n-1)}
}

// CanonicalKey returns a key of the puzzle's position that is the same for its eight
// rotations and reflections: the rule, the size, and the stones of the side to move
// and of its opponent, the least of the eight images. Under freestyle and standard,
// where both colours play by the same rules, the key names the sides "to move" and
// "other", not the colours; under renju it names the colour to move. The move order
// and the category do not count.
func CanonicalKey(p Puzzle) string {
	n := p.Size
	var mover, other []engine.Point
	for i, m := range p.Moves {
		if (i%2 == 0) == (p.ToMove == engine.Black) {
			mover = append(mover, m)
		} else {
			other = append(other, m)
		}
	}
	head := p.Rule.String() + "/" + fmt.Sprint(n) + "/"
	if p.Rule == engine.Renju {
		head += p.ToMove.String() + "/"
	}
	best := ""
	img := make([]engine.Point, 0, len(p.Moves))
	for _, s := range symmetries {
		var sb strings.Builder
		sb.WriteString(head)
		for side, stones := range [2][]engine.Point{mover, other} {
			if side == 1 {
				sb.WriteByte('/')
			}
			img = img[:0]
			for _, m := range stones {
				img = append(img, transform(s, m, n))
			}
			slices.SortFunc(img, func(a, b engine.Point) int {
				if a.Y != b.Y {
					return a.Y - b.Y
				}
				return a.X - b.X
			})
			for _, m := range img {
				sb.WriteString(m.String())
			}
		}
		if k := sb.String(); best == "" || k < best {
			best = k
		}
	}
	return best
}

// keyHash is the first twelve hex digits of the key's SHA-256.
func keyHash(k string) string {
	h := sha256.Sum256([]byte(k))
	return hex.EncodeToString(h[:6])
}
