package load

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRawAppend runs the raw append-script measurement against miniredis: appends
// succeed, are counted, and the rooms are deleted afterwards.
func TestRawAppend(t *testing.T) {
	m := miniredis.RunT(t)
	for _, unbatched := range []bool{false, true} {
		res, err := RawAppend(context.Background(), "redis://"+m.Addr()+"/0", 4, time.Second, unbatched)
		require.NoError(t, err)
		assert.Equal(t, unbatched, res.Unbatched)
		assert.Zero(t, res.Errors)
		assert.Positive(t, res.Appends)
		assert.Equal(t, res.Appends, res.Latency.Count)
		assert.Positive(t, res.PerSec)
		for _, k := range m.Keys() {
			assert.NotContains(t, k, "{room:loadraw", "raw rooms must be deleted")
		}
	}
}
