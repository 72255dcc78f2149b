package tune

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func TestParseTeacherValue(t *testing.T) {
	tests := []struct {
		msg  string
		want int32
		ok   bool
	}{
		{"Depth 12-21 | Eval 204 | Time 123ms | H10 I7 G9", 204, true},
		{"Speed 42014 | Depth 12-22 | Eval -230 | Node 20K | Time 477ms", -230, true},
		{"Depth 14-13 | Eval +M25 | Time 576ms | H10", 999_975, true},
		{"Speed 1K | Depth 9-9 | Eval -M12 | Node 1K | Time 3ms", -999_988, true},
		{"Eval 0", 0, true},
		{"Eval +M*", 0, false},      // a mate from Rapfi's database: no distance
		{"Eval VAL_NONE", 0, false}, // no value
		{"Eval 999999", 0, false},   // not a plain value: it would read as a mate
		{"Load config from config.toml", 0, false},
		{"Evaluator set to classical.", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseTeacherValue(tt.msg)
		require.Equal(t, tt.ok, ok, tt.msg)
		require.Equal(t, tt.want, got, tt.msg)
	}
}

// plyTeacher values a position at 10 × its ply (odd plies negative) and records the
// side to move of each position it is asked about.
type plyTeacher struct {
	asked []engine.Color
	fail  int // fail at this ply (0: never)
}

func (p *plyTeacher) Value(_ context.Context, b *engine.Board) (int32, error) {
	if p.fail > 0 && b.Ply() == p.fail {
		return 0, errors.New("teacher died")
	}
	p.asked = append(p.asked, b.ToMove())
	v := int32(10 * b.Ply())
	if b.Ply()%2 == 1 {
		v = -v
	}
	return v, nil
}

// TestLabel: the positions after the opening get the teacher's values, a recorded
// win or loss is kept without asking the teacher, the rest of the game is unchanged,
// and the labelled game is a valid dataset line.
func TestLabel(t *testing.T) {
	g, err := ParseGame("freestyle 15 draw 3 h8i9g7h7g9g8f8 3,999990,5,-999996")
	require.NoError(t, err)
	var teacher plyTeacher
	got, asked, err := Label(context.Background(), g, &teacher)
	require.NoError(t, err)
	require.Equal(t, 2, asked)
	require.Equal(t, []int32{-30, 999990, -50, -999996}, got.Scores)
	require.Equal(t, []engine.Color{engine.White, engine.White}, teacher.asked, "plies 3 and 5: white to move")
	require.Equal(t, []int32{3, 999990, 5, -999996}, g.Scores, "the input is not modified")
	got.Scores = g.Scores
	require.Equal(t, g, got)
	back, err := ParseGame(func() string { l, _, _ := Label(context.Background(), g, &plyTeacher{}); return l.String() }())
	require.NoError(t, err)
	require.Equal(t, []int32{-30, 999990, -50, -999996}, back.Scores)

	// A game without scores: every position after the opening is asked.
	g, err = ParseGame("freestyle 15 draw 3 h8i9g7h7g9g8f8")
	require.NoError(t, err)
	got, asked, err = Label(context.Background(), g, &plyTeacher{})
	require.NoError(t, err)
	require.Equal(t, 4, asked)
	require.Equal(t, []int32{-30, 40, -50, 60}, got.Scores)

	// A teacher failure names the ply and leaves the game alone.
	_, _, err = Label(context.Background(), g, &plyTeacher{fail: 5})
	require.ErrorContains(t, err, "ply 6")
}

// fakeTeacherBrain writes a shell brain that logs the lines it reads and, asked to
// move, prints the given MESSAGE lines and the move 0,0.
func fakeTeacherBrain(t *testing.T, messages ...string) (path, logFile string) {
	dir := t.TempDir()
	logFile = filepath.Join(dir, "log")
	var say strings.Builder
	for _, m := range messages {
		say.WriteString("echo 'MESSAGE " + m + "'; ")
	}
	script := `#!/bin/sh
while read -r line; do
  echo "$line" >> ` + logFile + `
  case "$line" in
    START*) echo OK ;;
    BEGIN*|TURN*|DONE*) ` + say.String() + `echo 0,0 ;;
  esac
done
`
	path = filepath.Join(dir, "pbrain-teacher")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path, logFile
}

// TestBrainTeacher: the value is the last Eval the brain reports before its move, the
// node limit is sent, and a brain that reports none is an error.
func TestBrainTeacher(t *testing.T) {
	b, err := engine.BoardFromMoves(15, engine.Freestyle, []engine.Point{{X: 7, Y: 7}, {X: 8, Y: 8}})
	require.NoError(t, err)

	path, logFile := fakeTeacherBrain(t, "Depth 3-3 | Eval 42 | Time 1ms | H8", "Speed 1K | Depth 4-6 | Eval -17 | Node 1K | Time 2ms")
	teacher := NewBrainTeacher(path, 1234)
	v, err := teacher.Value(context.Background(), b)
	require.NoError(t, err)
	require.Equal(t, int32(-17), v)
	require.NoError(t, b.Play(engine.Point{X: 9, Y: 9}))
	v, err = teacher.Value(context.Background(), b)
	require.NoError(t, err)
	require.Equal(t, int32(-17), v)
	require.NoError(t, teacher.Close())
	raw, err := os.ReadFile(logFile)
	require.NoError(t, err)
	require.Contains(t, string(raw), "INFO MAX_NODE 1234\n")
	require.Equal(t, 2, strings.Count(string(raw), "DONE\n"), "each position sent as a board")

	path, _ = fakeTeacherBrain(t, "Depth 4-6 | Eval +M7 | Time 2ms")
	teacher = NewBrainTeacher(path, 1000)
	v, err = teacher.Value(context.Background(), b)
	require.NoError(t, err)
	require.Equal(t, int32(999_993), v)
	require.NoError(t, teacher.Close())

	path, _ = fakeTeacherBrain(t, "thinking")
	teacher = NewBrainTeacher(path, 1000)
	defer teacher.Close()
	_, err = teacher.Value(context.Background(), b)
	require.ErrorIs(t, err, ErrNoTeacherValue)
}

// TestTuneScoreScale: a score scale equal to the fitted k changes nothing; another
// one changes the targets, and so the losses.
func TestTuneScoreScale(t *testing.T) {
	g1, err := ParseGame("freestyle 15 black 4 h8e10f10i5f8g9e9d10d8g11g8e8f7f6d7g7d5e6d6d4d9 511,-574,765,-780,999983,-1047,999985,-694,1047,-999990,999993,-999994,999995,-999996,999997,-999998,999999")
	require.NoError(t, err)
	g2, err := ParseGame("freestyle 15 black 3 h8h7f8i8g7i6g6g8f9i7i9f6e9h6g9h9h10j5k4e7d10c11c9d9f12i4i5g11e11b8g13 -224,193,-255,316,-426,489,-473,502,-502,473,-517,509,-374,483,-700,287,-654,652,-369,999991,-193,999993,-999994,289,-999996,999997,-999998,999999")
	require.NoError(t, err)
	data, err := Samples([]Game{g1, g2}, 1, nil)
	require.NoError(t, err)
	init := engine.ShippedEvalTables()
	cfg := TuneConfig{Fit: FitConfig{Iterations: 20, Rate: 1}, ScoreWeight: 1}
	base, reps, err := Tune(data, init, cfg)
	require.NoError(t, err)
	k := reps[engine.Freestyle].Scale
	cfg.ScoreScale = k
	same, sameReps, err := Tune(data, init, cfg)
	require.NoError(t, err)
	require.Equal(t, reps, sameReps)
	require.Equal(t, string(base.Marshal()), string(same.Marshal()))
	cfg.ScoreScale = 10 * k
	_, otherReps, err := Tune(data, init, cfg)
	require.NoError(t, err)
	require.Equal(t, k, otherReps[engine.Freestyle].Scale, "the evaluation's scale is still fitted")
	require.NotEqual(t, reps[engine.Freestyle].TrainBefore, otherReps[engine.Freestyle].TrainBefore)
}
