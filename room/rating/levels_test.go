package rating

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

// Every level has a rating, and stronger levels (in engine.Levels' order) rate higher.
func TestLevelRatings(t *testing.T) {
	prev := 0
	for _, l := range engine.Levels() {
		r, ok := LevelRating(l.Name)
		require.True(t, ok, "level %s has no published rating", l.Name)
		assert.Greater(t, r, prev, "level %s", l.Name)
		prev = r
	}
	assert.Len(t, levelRatings, len(engine.Levels()), "no rating for a level that does not exist")
	_, ok := LevelRating("grandmaster")
	assert.False(t, ok)
}
