package baseline

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

// checkTree verifies n against an independent replay of alpha-beta over its recorded
// children: each child got the window as updated by its elder siblings, the node's value
// is the min/max of its children, and the node is cut exactly when alpha >= beta is
// reached with candidates left (those, and only those, are listed as pruned).
func checkTree(t *testing.T, n *TreeNode, width int) int {
	t.Helper()
	if n.Leaf {
		require.Empty(t, n.Children)
		require.False(t, n.Cut)
		return 1
	}
	require.NotEmpty(t, n.Children)
	alpha, beta := n.Alpha, n.Beta
	count := 1
	for k, c := range n.Children {
		require.Equal(t, alpha, c.Alpha, "child %d alpha", k)
		require.Equal(t, beta, c.Beta, "child %d beta", k)
		require.Equal(t, !n.Maximizing, c.Maximizing)
		count += checkTree(t, c, width)
		if n.Maximizing {
			alpha = max(alpha, c.Value)
		} else {
			beta = min(beta, c.Value)
		}
		if k < len(n.Children)-1 {
			require.Less(t, alpha, beta, "searched on after alpha >= beta")
		}
	}
	total := len(n.Children) + len(n.Pruned)
	require.LessOrEqual(t, total, width)
	require.Equal(t, alpha >= beta && len(n.Pruned) > 0, n.Cut)
	if n.Cut {
		assert.Equal(t, map[bool]string{true: "beta", false: "alpha"}[n.Maximizing], n.CutBy)
	} else {
		assert.Empty(t, n.Pruned)
	}
	want := n.Children[0].Value
	for _, c := range n.Children {
		if n.Maximizing {
			want = max(want, c.Value)
		} else {
			want = min(want, c.Value)
		}
	}
	require.Equal(t, want, n.Value)
	require.Equal(t, want, n.Children[n.Best].Value)
	return count
}

func TestTreeMatchesSearch(t *testing.T) {
	for _, pos := range []string{"h8 i9 j7", "h8 h9 i7 g9", "h8 i8 i7 g9 j9", "h8a1i8a2j8a3k8a15", "h8 g7 i9 j10 g9 i7"} {
		for depth := 1; depth <= MaxTreeDepth; depth++ {
			for _, width := range []int{2, 4, MaxTreeWidth} {
				b := board(t, engine.Freestyle, pos)
				tree, err := Tree(context.Background(), b, depth, width)
				require.NoError(t, err)
				res, err := Search(context.Background(), b, Options{Mode: ModeOrdered, Depth: depth, MaxCandidates: width})
				require.NoError(t, err)
				require.Equal(t, res.Value, tree.Value, "%s d%d w%d", pos, depth, width)
				require.Equal(t, res.Move, tree.Children[tree.Best].Move, "%s d%d w%d", pos, depth, width)
				nodes := checkTree(t, tree, width)
				require.LessOrEqual(t, uint64(nodes), res.Nodes)
			}
		}
	}
}

func TestTreeHasCuts(t *testing.T) {
	tree, err := Tree(context.Background(), board(t, engine.Freestyle, "h8 i9 j7"), 3, 4)
	require.NoError(t, err)
	cuts := 0
	var walk func(n *TreeNode)
	walk = func(n *TreeNode) {
		if n.Cut {
			cuts++
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(tree)
	require.Positive(t, cuts)
}

func TestTreeRefuses(t *testing.T) {
	b := board(t, engine.Freestyle, "h8 i9")
	for _, tt := range []struct{ depth, width int }{{0, 3}, {MaxTreeDepth + 1, 3}, {2, 0}, {2, MaxTreeWidth + 1}} {
		_, err := Tree(context.Background(), b, tt.depth, tt.width)
		require.ErrorIs(t, err, ErrTreeTooBig)
	}
	empty, _ := engine.NewBoard(15, engine.Freestyle)
	_, err := Tree(context.Background(), empty, 2, 3)
	require.ErrorIs(t, err, ErrEmptyBoard)
	_, err = Tree(context.Background(), board(t, engine.Freestyle, "h8a1i8a2j8a3k8a4l8"), 2, 3)
	require.ErrorIs(t, err, ErrGameOver)
}

func TestSearchNodeLimit(t *testing.T) {
	b := board(t, engine.Freestyle, "h8 i9 j7")
	res, err := Search(context.Background(), b, Options{Mode: ModeMinimax, Depth: 3, MaxNodes: 1000})
	require.ErrorIs(t, err, ErrNodeLimit)
	require.GreaterOrEqual(t, res.Nodes, uint64(1000))
	require.Less(t, res.Nodes, uint64(1100))
}
