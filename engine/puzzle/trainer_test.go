package puzzle

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func newEngine() *engine.Engine { return engine.New(engine.Options{HashMiB: 1}) }

// shipped returns the shipped puzzle with the given id.
func shipped(t testing.TB, id string) Puzzle {
	t.Helper()
	ps, err := Shipped()
	require.NoError(t, err)
	for _, p := range ps {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no shipped puzzle %s", id)
	return Puzzle{}
}

// playOut plays sol after line through Check and requires each attacker move to be
// accepted with sol's next move as the reply, and the last to solve the puzzle.
func playOut(t *testing.T, e *engine.Engine, p Puzzle, line, sol []engine.Point) {
	t.Helper()
	line = append([]engine.Point(nil), line...)
	for i := 0; i < len(sol); i += 2 {
		st, err := Check(context.Background(), e, p, line, sol[i], 0)
		require.NoError(t, err)
		if i == len(sol)-1 {
			require.Equal(t, Solved, st.Result, "move %s", sol[i])
			return
		}
		require.Equal(t, Continue, st.Result, "move %s: %v", sol[i], st.Solution)
		require.Equal(t, sol[i+1], st.Reply, "the reply to %s", sol[i])
		line = append(line, sol[i], sol[i+1])
	}
	t.Fatalf("the solution %s ends with a defence", engine.FormatMoves(sol))
}

func TestShippedAttackPuzzlesSolve(t *testing.T) {
	ps, err := Shipped()
	require.NoError(t, err)
	e := newEngine()
	modes := map[Mode]int{}
	for i, p := range ps {
		mode, err := ModeOf(p)
		require.NoError(t, err)
		modes[mode]++
		if mode != Attack || raceEnabled && i%8 != 0 {
			continue
		}
		t.Run(p.ID, func(t *testing.T) {
			sol, err := Solution(context.Background(), e, p, nil, 0)
			require.NoError(t, err)
			require.Equal(t, 1, len(sol)%2, "the attacker plays first and last")
			hint, err := Hint(context.Background(), e, p, nil, 0)
			require.NoError(t, err)
			assert.Equal(t, sol[0], hint, "the hint is the solution's first move")
			playOut(t, e, p, nil, sol)
		})
	}
	assert.Greater(t, modes[Attack], 90)
	assert.Greater(t, modes[Defence], 50)
}

func TestModeOf(t *testing.T) {
	for id, want := range map[string]Mode{
		"win-in-one-001": Attack, "vcf-001": Attack, "vct-001": Attack, "must-block-001": Defence,
		"open-three-001": Defence, "renju-trap-001": Attack, "renju-trap-004": Defence,
		"overline-trap-001": Attack, "overline-trap-002": Defence,
	} {
		got, err := ModeOf(shipped(t, id))
		require.NoError(t, err)
		assert.Equal(t, want, got, id)
	}
	_, err := ModeOf(Puzzle{Category: "nope"})
	assert.ErrorIs(t, err, ErrCategory)
}

func TestCheckKnownAnswers(t *testing.T) {
	e := newEngine()
	ctx := context.Background()
	mv := func(s string) []engine.Point { return pts(t, s) }
	pt := func(s string) engine.Point { return mv(s)[0] }
	tests := []struct {
		name, id, line, move string
		want                 Result
		reply                string // "": not checked
	}{
		{"a five solves", "overline-trap-001", "", "g5", Solved, ""},
		{"standard: six is no win", "overline-trap-001", "", "k9", Wrong, ""},
		{"a far move lets the VCF go", "vcf-022", "", "a1", Wrong, ""},
		{"the VCF's four", "vcf-022", "", "e10", Continue, "d11"},
		{"transposed: the second four first", "vcf-022", "", "f11", Continue, "g11"},
		{"transposed: then the first", "vcf-022", "f11 g11", "e10", Continue, "d11"},
		{"transposed: then the rest", "vcf-022", "f11 g11 e10 d11", "g12", Continue, "i14"},
		{"transposed: the five", "vcf-022", "f11 g11 e10 d11 g12 i14", "d9", Solved, ""},
		{"renju: black's double three is forbidden", "vcf-030", "", "m7", Wrong, ""},
		{"renju: the same point once it is a four", "vcf-030", "j5 k6 m5 l5", "m7", Continue, "m6"},
		{"the defender's four must be blocked", "vcf-018", "e11 d11", "e9", Wrong, ""},
		{"blocking it with a four", "vcf-018", "e11 d11", "e10", Continue, "e9"},
		{"renju: white's four, black's block forbidden", "renju-trap-001", "", "g7", Continue, ""},
		{"defence: the block", "must-block-001", "", "m11", Solved, ""},
		{"defence: anything else", "must-block-001", "", "a1", Wrong, ""},
		{"defence: black's overline is forbidden", "renju-trap-004", "", "h11", Wrong, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := shipped(t, tt.id)
			st, err := Check(ctx, e, p, mv(tt.line), pt(tt.move), 0)
			require.NoError(t, err)
			require.Equal(t, tt.want, st.Result, "%+v", st)
			switch tt.want {
			case Continue:
				require.NotEqual(t, engine.NoPoint, st.Reply)
				if tt.reply != "" {
					assert.Equal(t, pt(tt.reply), st.Reply)
				}
				assert.Nil(t, st.Solution)
			case Solved:
				assert.Equal(t, engine.NoPoint, st.Reply)
			case Wrong:
				assert.Equal(t, engine.NoPoint, st.Reply)
				require.NotEmpty(t, st.Solution, "a wrong move comes with the solution")
				if mode, _ := ModeOf(p); mode == Attack {
					playOut(t, e, p, mv(tt.line), st.Solution)
				} else {
					assert.True(t, p.Accepts(st.Solution[0]))
				}
			}
		})
	}
}

func TestCheckErrors(t *testing.T) {
	e := newEngine()
	vcf := shipped(t, "vcf-022")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		p      Puzzle
		line   []engine.Point
		move   engine.Point
		budget uint64
		want   error
	}{
		{"occupied", context.Background(), vcf, nil, vcf.Moves[0], 0, ErrBadMove},
		{"off the board", context.Background(), vcf, nil, engine.Point{X: 15, Y: 3}, 0, ErrBadMove},
		{"no point", context.Background(), vcf, nil, engine.NoPoint, 0, ErrBadMove},
		{"line on a stone", context.Background(), vcf, vcf.Moves[:1], pts(t, "e10")[0], 0, ErrBadLine},
		{"line ends with the attacker", context.Background(), vcf, pts(t, "e10"), pts(t, "f11")[0], 0, ErrBadLine},
		{"line past the five", context.Background(), vcf, pts(t, "e10 d11 f11 g11 g12 i14 d9 a1"), pts(t, "a2")[0], 0, ErrBadLine},
		{"defence puzzles have no line", context.Background(), shipped(t, "must-block-001"), pts(t, "a1 a2"), pts(t, "m11")[0], 0, ErrBadLine},
		{"no forced win", context.Background(), Puzzle{ID: "x", Category: VCF, Rule: engine.Freestyle, Size: 15, Moves: pts(t, "h8 a1"), Answers: pts(t, "h9")}, nil, pts(t, "h9")[0], 0, ErrNoWin},
		{"budget", context.Background(), shipped(t, "vct-008"), nil, pts(t, "h10")[0], 100, ErrBudget},
		{"cancelled", cancelled, vcf, nil, pts(t, "e10")[0], 0, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Check(tt.ctx, e, tt.p, tt.line, tt.move, tt.budget)
			require.ErrorIs(t, err, tt.want)
			if tt.want == ErrBadLine || tt.want == ErrBudget || tt.want == context.Canceled {
				_, err = Hint(tt.ctx, e, tt.p, tt.line, tt.budget)
				assert.ErrorIs(t, err, tt.want, "Hint")
				_, err = Solution(tt.ctx, e, tt.p, tt.line, tt.budget)
				assert.ErrorIs(t, err, tt.want, "Solution")
			}
		})
	}
}

func TestResultAndModeStrings(t *testing.T) {
	assert.Equal(t, []string{"continue", "solved", "wrong", "unknown"},
		[]string{Continue.String(), Solved.String(), Wrong.String(), Result(0).String()})
	assert.Equal(t, []string{"attack", "defence", "unknown"}, []string{Attack.String(), Defence.String(), Mode(0).String()})
}

// FuzzCheck feeds Check any line and move on a shipped VCF puzzle: it never panics,
// bad input is an error of its kind, and a verdict is one of the three results.
func FuzzCheck(f *testing.F) {
	f.Add("", "e10")
	f.Add("e10 d11", "f11")
	f.Add("e10 d11 f11", "g11")
	f.Add("h8", "a1")
	f.Add("e10 a1", "a2")
	p := shipped(f, "vcf-022")
	e := newEngine()
	f.Fuzz(func(t *testing.T, line, move string) {
		l, err := engine.ParseMoves(line, 15)
		if err != nil || len(l) > 12 {
			return
		}
		m, err := engine.ParsePoint(move, 15)
		if err != nil {
			m = engine.Point{X: len(move) - 3, Y: 20 - len(line)} // off the board too
		}
		st, err := Check(context.Background(), e, p, l, m, 200_000)
		if err != nil {
			require.True(t, errors.Is(err, ErrBadMove) || errors.Is(err, ErrBadLine) || errors.Is(err, ErrBudget) ||
				errors.Is(err, ErrNoWin), "%v", err)
			return
		}
		require.Contains(t, []Result{Continue, Solved, Wrong}, st.Result)
		if st.Result == Continue {
			require.NoError(t, func() error {
				b, err := p.Board()
				require.NoError(t, err)
				for _, q := range append(l, m) {
					require.NoError(t, b.Play(q))
				}
				return b.Check(st.Reply)
			}(), "the reply is legal")
		}
	})
}
