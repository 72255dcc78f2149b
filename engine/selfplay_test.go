package engine

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"
)

// TestSelfPlayAB plays engine configuration A against B (GOMOKU_AB=1; tuning aid).
// GOMOKU_AB_GAMES sets the number of games (pairs of colour-swapped openings).
func TestSelfPlayAB(t *testing.T) {
	if os.Getenv("GOMOKU_AB") == "" {
		t.Skip("set GOMOKU_AB=1 to run the A/B self-play match")
	}
	games, _ := strconv.Atoi(os.Getenv("GOMOKU_AB_GAMES"))
	if games == 0 {
		games = 20
	}
	ms, _ := strconv.Atoi(os.Getenv("GOMOKU_AB_MS"))
	if ms == 0 {
		ms = 50
	}
	rule := Freestyle
	if r, err := ParseRule(os.Getenv("GOMOKU_AB_RULE")); err == nil {
		rule = r
	}
	cfgA := searchConfig{}
	cfgB := searchConfig{}
	applyAB(&cfgA, os.Getenv("GOMOKU_AB_A"))
	applyAB(&cfgB, os.Getenv("GOMOKU_AB_B"))
	seed, _ := strconv.ParseUint(os.Getenv("GOMOKU_AB_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(99, seed+1))
	score := 0.0
	for g := 0; g < games; g++ {
		var opening []Point
		for len(opening) < 3 {
			p := Point{5 + rng.IntN(5), 5 + rng.IntN(5)}
			dup := false
			for _, q := range opening {
				dup = dup || q == p
			}
			if !dup {
				opening = append(opening, p)
			}
		}
		for swap := 0; swap < 2; swap++ {
			b, _ := BoardFromMoves(15, rule, opening)
			ea, eb := New(Options{HashMiB: 8}), New(Options{HashMiB: 8})
			ea.s.cfg, eb.s.cfg = cfgA, cfgB
			aColor := White // A plays the side to move after the opening on the first pass
			if swap == 1 {
				aColor = Black
			}
			for !b.Outcome().Over {
				e := eb
				if b.ToMove() == aColor {
					e = ea
				}
				r := e.Search(context.Background(), b, Limits{Time: time.Duration(ms) * time.Millisecond}, nil)
				if err := b.Play(r.Move); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("game %d.%d: A is %s, winner %s in %d plies", g, swap, aColor, b.Outcome().Winner, b.Ply())
			switch b.Outcome().Winner {
			case aColor:
				score++
			case Empty:
				score += 0.5
			}
		}
		t.Logf("after %d games: A %.1f / %d", 2*(g+1), score, 2*(g+1))
	}
}

func applyAB(c *searchConfig, spec string) {
	for _, f := range splitComma(spec) {
		switch f {
		case "noleafvcf":
			c.noLeafVCF = true
		case "plainlmr":
			c.plainLMR = true
		case "nolmp":
			c.noLMP = true
		case "lmp2":
			c.lmp2 = true
		case "leafvcf150":
			c.leafVCF = 150
		case "leafvcf12":
			c.leafVCF = 12
		case "asp":
			c.aspiration = true
		}
	}
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
