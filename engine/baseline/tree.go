package baseline

import (
	"context"
	"errors"

	"github.com/gomoku-arena/gomoku/engine"
)

// TreeNode is one node of a recorded alpha-beta search (see Tree). Values are from the
// root player's point of view, as in the search: the root player maximises.
type TreeNode struct {
	Move       engine.Point // the move that led here (NoPoint at the root)
	Maximizing bool         // the root player is to move here
	Alpha      int64        // the window at entry
	Beta       int64
	Value      int64 // the value the node returned
	Leaf       bool  // evaluated statically (depth 0 or no candidates)
	Terminal   bool  // the move ended the game (Value is a win, loss or draw)
	Best       int   // index in Children of the best child, -1 when none
	Children   []*TreeNode
	// Cut is set when alpha >= beta after a child with candidates left: the moves in
	// Pruned were never searched. CutBy names the bound the value crossed: "beta" at a
	// maximising node (value >= beta: the minimiser above avoids this line), "alpha" at a
	// minimising node (value <= alpha: the maximiser above has better).
	Cut    bool
	CutBy  string
	Pruned []engine.Point
}

// Tree limits.
const (
	MaxTreeDepth = 3
	MaxTreeWidth = 6
)

// ErrTreeTooBig is returned by Tree for a depth or width over MaxTreeDepth/MaxTreeWidth.
var ErrTreeTooBig = errors.New("baseline: tree depth or width too large")

// ErrEmptyBoard is returned by Tree for the empty board (the first move is not searched).
var ErrEmptyBoard = errors.New("baseline: empty board")

// Tree runs the classic search (alpha-beta, ordered candidates, the best width of them
// at every node) to depth and records every node it visits. Its root value and best
// move are those of Search with Options{Mode: ModeOrdered, Depth: depth,
// MaxCandidates: width}. It exists for the classroom drawing, so it allocates a node per
// visit; depth and width are capped to keep the tree small.
func Tree(ctx context.Context, b *engine.Board, depth, width int) (*TreeNode, error) {
	if depth < 1 || width < 1 || depth > MaxTreeDepth || width > MaxTreeWidth {
		return nil, ErrTreeTooBig
	}
	if b.Outcome().Over {
		return nil, ErrGameOver
	}
	if b.Ply() == 0 {
		return nil, ErrEmptyBoard
	}
	s := newSearcher(ctx, b, Options{Mode: ModeOrdered, Depth: depth, MaxCandidates: width})
	root := &TreeNode{Move: engine.NoPoint}
	s.record(root, depth, -winValue-1, winValue+1, 0)
	if s.stopped {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, context.DeadlineExceeded
	}
	return root, nil
}

// record is search (ModeOrdered, no TT) writing each visit into n.
func (s *searcher) record(n *TreeNode, depth int, alpha, beta int64, ply int) int64 {
	s.nodes++
	n.Alpha, n.Beta, n.Best = alpha, beta, -1
	n.Maximizing = s.b.ToMove() == s.me
	if s.stop() {
		return 0
	}
	if depth == 0 {
		n.Leaf, n.Value = true, s.eval()
		return n.Value
	}
	cands := s.candidates(ply, 0)
	if len(cands) == 0 {
		n.Leaf, n.Value = true, s.eval()
		return n.Value
	}
	// candidates reuses its buffer per ply; keep this node's list.
	moves := make([]int, len(cands))
	for k, c := range cands {
		moves[k] = c.i
	}
	best := -winValue - 2
	if !n.Maximizing {
		best = winValue + 2
	}
	for k, i := range moves {
		child := &TreeNode{Move: s.g.Point(i)}
		n.Children = append(n.Children, child)
		s.play(i)
		var v int64
		if o := s.b.Outcome(); o.Over {
			v = s.outcomeValue(o, ply+1)
			s.nodes++
			child.Alpha, child.Beta, child.Best = alpha, beta, -1
			child.Maximizing = s.b.ToMove() == s.me
			child.Terminal, child.Leaf, child.Value = true, true, v
		} else {
			v = s.record(child, depth-1, alpha, beta, ply+1)
		}
		s.undo(i)
		if s.stopped {
			return 0
		}
		if n.Maximizing {
			if v > best {
				best, n.Best = v, k
			}
			alpha = max(alpha, v)
		} else {
			if v < best {
				best, n.Best = v, k
			}
			beta = min(beta, v)
		}
		if alpha >= beta {
			if k+1 < len(moves) {
				n.Cut = true
				n.CutBy = "alpha"
				if n.Maximizing {
					n.CutBy = "beta"
				}
				for _, j := range moves[k+1:] {
					n.Pruned = append(n.Pruned, s.g.Point(j))
				}
			}
			break
		}
	}
	n.Value = best
	return best
}
