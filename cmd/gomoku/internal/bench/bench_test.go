package bench

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunAgrees(t *testing.T) {
	rows, err := Run(context.Background(), Config{Depth: 2, Positions: []string{"h8 i9 j7", "h8 h9 i7 g9"}, Engine: true}, nil)
	require.NoError(t, err)
	require.Len(t, rows, 10)
	for _, r := range rows {
		if r.Method == "engine" {
			continue
		}
		assert.True(t, r.SameVal, "%s %s", r.Position, r.Method)
		assert.Positive(t, r.Nodes)
	}
	assert.Greater(t, rows[0].Nodes, rows[2].Nodes, "ordering prunes more than plain minimax visits")
	var buf bytes.Buffer
	Print(&buf, rows)
	assert.Contains(t, buf.String(), "alpha-beta+ordering+TT")
}
