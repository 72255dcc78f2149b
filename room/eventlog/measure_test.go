package eventlog

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMeasureAppend(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		ctx := ctxT(t)
		s := New(b.client)
		tp, err := MeasureAppend(ctx, s, 4, 300*time.Millisecond)
		require.NoError(t, err)
		assert.Greater(t, tp.Appends, int64(10))
		assert.Greater(t, tp.PerSec, 10.0)
		assert.Equal(t, 4, tp.Writers)
		keys, err := b.client.Keys(ctx, "gomoku:*").Result()
		require.NoError(t, err)
		assert.Empty(t, keys, "scratch rooms removed")
		t.Logf("%s: %.0f appends/s with 4 writers", b.name, tp.PerSec)
		_, err = MeasureAppend(ctx, s, 0, time.Second)
		assert.ErrorIs(t, err, ErrBadRequest)
	})
}
