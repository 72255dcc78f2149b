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

// NearestLevel picks the level whose published rating is nearest, the weaker of two
// equally near (1600 is 106 from intermediate's 1494 and from advanced's 1706).
func TestNearestLevel(t *testing.T) {
	for _, c := range []struct {
		rating float64
		want   string
	}{
		{0, "beginner"}, {1000, "beginner"}, {1067, "beginner"}, {1068, "novice"},
		{1314, "novice"}, {1315, "intermediate"}, {1500, "intermediate"}, {1600, "intermediate"},
		{1601, "advanced"}, {1820, "advanced"}, {1821, "expert"}, {2081, "expert"},
		{2082, "master"}, {3000, "master"},
	} {
		assert.Equal(t, c.want, NearestLevel(c.rating), "%v", c.rating)
	}
}
