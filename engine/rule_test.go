package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRules: Rules lists every rule set once, in value order, each named and parsed
// back by its name; the slice is the caller's own.
func TestRules(t *testing.T) {
	rules := Rules()
	require.Equal(t, []Rule{Freestyle, Standard, Renju}, rules)
	for _, r := range rules {
		got, err := ParseRule(r.String())
		require.NoError(t, err)
		assert.Equal(t, r, got)
	}
	rules[0] = Renju
	assert.Equal(t, Freestyle, Rules()[0])
}
