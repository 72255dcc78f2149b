package engine

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestGenerateVCF prints VCF puzzles for tactics_vcf_test.go when GOMOKU_GEN_VCF=1:
// positions from games between noisy low-level players where the side to move has a
// VCF, with the shortest VCF length (iterative deepening of the VCF depth) from 3 to
// 15 plies. Every printed position is then checked by TestTactics, including a
// play-out against the full engine's defence.
func TestGenerateVCF(t *testing.T) {
	if os.Getenv("GOMOKU_GEN_VCF") == "" {
		t.Skip("set GOMOKU_GEN_VCF=1 to generate VCF puzzles")
	}
	found := map[string]bool{}
	var out strings.Builder
	novice, _ := LevelByName("novice")
	for seed := uint64(1); seed < 400 && len(found) < 21; seed++ {
		for _, rule := range allRules {
			b, _ := NewBoard(15, rule)
			pb := NewPlayer(novice, Options{HashMiB: 1, Rand: seed})
			pw := NewPlayer(novice, Options{HashMiB: 1, Rand: seed * 7919})
			for !b.Outcome().Over && b.Ply() < 120 {
				if b.Ply() >= 8 {
					if d := shortestVCF(b); d >= 3 && d <= 15 {
						k := fmt.Sprintf("%s/%d", rule, d)
						if !found[k] {
							found[k] = true
							var bl, wh []string
							for i, m := range b.Moves() {
								if i%2 == 0 {
									bl = append(bl, m.String())
								} else {
									wh = append(wh, m.String())
								}
							}
							fmt.Fprintf(&out, "\t{name: \"generated vcf %d\", rules: []Rule{%s}, black: %q, white: %q, toMove: %s, mateIn: %d},\n",
								d, strings.Title(rule.String()), strings.Join(bl, " "), strings.Join(wh, " "), strings.Title(b.ToMove().String()), d)
						}
					}
				}
				p := pb
				if b.ToMove() == White {
					p = pw
				}
				r, _ := p.Play(context.Background(), b, Limits{Time: 20 * time.Millisecond}, nil)
				if b.Play(r.Move) != nil {
					break
				}
			}
		}
	}
	t.Log("\n" + out.String())
}

// shortestVCF returns the length of the shortest VCF of the side to move (0: none
// found within 15 plies).
func shortestVCF(b *Board) int {
	e := New(Options{HashMiB: 1})
	s := e.s
	s.pos.setup(b)
	s.stopped, s.nodes, s.nextPoll, s.nodeLimit, s.report = false, 0, 1<<62, 0, nil
	me := int(s.pos.side - 1)
	if s.pos.cnt[me][lvFive] > 0 || s.pos.cnt[1-me][lvFive] > 0 {
		return 0
	}
	for d := 3; d <= 15; d += 2 {
		s.vcfStop = s.nodes + 200_000
		if r := s.vcf(0, d); r > 0 {
			return r
		}
	}
	return 0
}
