// Package padgrid is the wall-padded board the classic players (engine/baseline and
// engine/mcts) scan: a border of walls around the board so line scans need no bounds
// checks, and a count of stones within two points of every cell, which is their
// candidate generator. The engine proper has its own, incrementally evaluated board.
package padgrid

import "github.com/gomoku-arena/gomoku/engine"

// Cell contents.
const (
	Empty int8 = 0
	Black int8 = 1
	White int8 = 2
	Wall  int8 = 3
)

// Grid is a board of Size x Size padded to W = Size+2 cells a side.
type Grid struct {
	Size  int
	W     int     // padded width: Size + 2
	Cells []int8  // Empty, Black, White or Wall, indexed y*W+x in padded coordinates
	Near  []int16 // stones within two points (Chebyshev distance) of each cell
	Dirs  [4]int  // index steps of the four line directions
	Ring  []int   // index offsets of the 5x5 neighbourhood (centre excluded)
}

// New returns an empty grid for a board of the given size.
func New(size int) Grid {
	w := size + 2
	g := Grid{Size: size, W: w, Cells: make([]int8, w*w), Near: make([]int16, w*w)}
	for y := 0; y < w; y++ {
		for x := 0; x < w; x++ {
			if x == 0 || y == 0 || x == w-1 || y == w-1 {
				g.Cells[y*w+x] = Wall
			}
		}
	}
	g.Dirs = [4]int{1, w, w + 1, w - 1}
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if dx != 0 || dy != 0 {
				g.Ring = append(g.Ring, dy*w+dx)
			}
		}
	}
	return g
}

// Index returns the cell index of board point p.
func (g *Grid) Index(p engine.Point) int { return (p.Y+1)*g.W + p.X + 1 }

// Point returns the board point of cell index i.
func (g *Grid) Point(i int) engine.Point { return engine.Point{X: i%g.W - 1, Y: i/g.W - 1} }

// Put places a stone of colour c on the empty cell i.
func (g *Grid) Put(i int, c int8) { g.set(i, c, 1) }

// Remove takes the stone off cell i.
func (g *Grid) Remove(i int) { g.set(i, Empty, -1) }

func (g *Grid) set(i int, c int8, delta int16) {
	g.Cells[i] = c
	for _, o := range g.Ring {
		if j := i + o; j >= 0 && j < len(g.Near) {
			g.Near[j] += delta
		}
	}
}

// CopyFrom makes g's stones those of o (same size).
func (g *Grid) CopyFrom(o *Grid) {
	copy(g.Cells, o.Cells)
	copy(g.Near, o.Near)
}
