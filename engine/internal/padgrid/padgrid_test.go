package padgrid

import (
	"testing"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/stretchr/testify/assert"
)

func TestGrid(t *testing.T) {
	g := New(15)
	assert.Equal(t, 17, g.W)
	assert.Equal(t, Wall, g.Cells[0])
	p := engine.Point{X: 7, Y: 7}
	i := g.Index(p)
	assert.Equal(t, p, g.Point(i))
	assert.Equal(t, Empty, g.Cells[i])
	g.Put(i, Black)
	assert.Equal(t, Black, g.Cells[i])
	assert.Equal(t, int16(1), g.Near[g.Index(engine.Point{X: 9, Y: 5})], "two points away")
	assert.Equal(t, int16(0), g.Near[g.Index(engine.Point{X: 10, Y: 7})], "three points away")
	assert.Equal(t, int16(0), g.Near[i], "a stone does not count itself")
	c := New(15)
	c.CopyFrom(&g)
	assert.Equal(t, g.Cells, c.Cells)
	g.Remove(i)
	assert.Equal(t, Empty, g.Cells[i])
	for _, n := range g.Near {
		assert.Zero(t, n)
	}
}
