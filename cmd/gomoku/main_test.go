package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
)

func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd(t, "", "help")
	assert.Equal(t, 0, code)
	for _, c := range []string{"match", "puzzles", "bench", "play"} {
		assert.Contains(t, out, c)
	}
	code, _, errs := runCmd(t, "", "nope")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "unknown command")
	code, _, errs = runCmd(t, "", "match", "-games", "x")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "invalid value")
	code, _, errs = runCmd(t, "", "match", "-a", "level:godlike")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "unknown level")
	code, _, _ = runCmd(t, "", "help", "bench")
	assert.Equal(t, 0, code)
}

func TestMatchCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCmd(t, "", "match", "-a", "baseline", "-b", "mcts", "-games", "2", "-time", "30ms",
		"-rule", "standard", "-psq", dir, "-quiet", "-sprt", "0,50,0.05,0.05")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "baseline vs mcts")
	assert.Contains(t, out, "Elo difference")
	assert.Contains(t, out, "SPRT elo0=0 elo1=50")
	files, _ := filepath.Glob(filepath.Join(dir, "*.psq"))
	assert.Len(t, files, 2)
}

func TestBenchCommand(t *testing.T) {
	code, out, errs := runCmd(t, "", "bench", "-depth", "2", "-positions", "h8 i9 j7")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "minimax")
	assert.Contains(t, out, "alpha-beta+ordering+TT")
	assert.Contains(t, out, "engine")
}

func TestPuzzlesCommand(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.txt")
	require.NoError(t, os.WriteFile(file, []byte(
		"w1 | win-in-one | freestyle | 15 | black | h8 a1 i8 a2 j8 a3 k8 a15 | g8 l8 | four\n"+
			"b1 | must-block | freestyle | 15 | black | a1 h8 a2 i8 a3 j8 o15 k8 | g8 l8 | block\n"), 0o644))
	code, out, errs := runCmd(t, "", "puzzles", "-player", "baseline", "-file", file, "-time", "200ms", "-v")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "win-in-one")
	assert.Contains(t, out, "total")
	// A player that cannot solve them fails the threshold: exit status 1.
	code, _, errs = runCmd(t, "", "puzzles", "-player", "level:beginner", "-file", file, "-time", "50ms", "-threshold", "1.01")
	assert.Equal(t, 1, code, errs)
}

func TestShippedSuiteParses(t *testing.T) {
	code, out, errs := runCmd(t, "", "puzzles", "-player", "baseline", "-time", "20ms", "-category", "win-in-one", "-threshold", "0")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "win-in-one")
}

// TestPlay feeds a whole session through stdin: a bad point, an occupied point, a
// hint, an undo and quit.
func TestPlay(t *testing.T) {
	var out bytes.Buffer
	b, _ := engine.NewBoard(15, engine.Freestyle)
	ai := baseline.New(baseline.Options{Depth: 1})
	in := "zz\nh8\nh8\nhint\nundo\nj9\nquit\n"
	err := playLoop(context.Background(), strings.NewReader(in), &out, b, engine.Black, ai, 50*time.Millisecond)
	require.NoError(t, err)
	s := out.String()
	assert.Contains(t, s, `"zz" is not a point`)
	assert.Contains(t, s, "baseline plays")
	assert.Contains(t, s, "Cannot play h8")
	assert.Contains(t, s, "Hint:")
	assert.Contains(t, s, "Taken back.")
	assert.Contains(t, s, "Bye.")
	assert.Contains(t, s, "  a  b  c")
	assert.Equal(t, 2, b.Ply(), "j9 and the reply")
	assert.Equal(t, "j9", b.Moves()[0].String())
}

func TestPlayGameEnds(t *testing.T) {
	// The human wins: white (AI, depth 1) cannot stop an open four given first.
	var out bytes.Buffer
	ms, _ := engine.ParseMoves("h8a1i8a15j8", 15) // black to... white to move next
	b, _ := engine.BoardFromMoves(15, engine.Freestyle, ms[:4])
	ai := baseline.New(baseline.Options{Depth: 1})
	err := playLoop(context.Background(), strings.NewReader("j8\ng8\nk8\nl8\nf8\nquit\n"), &out, b, engine.Black, ai, 20*time.Millisecond)
	require.NoError(t, err)
	assert.Contains(t, out.String(), "Bye.")
}

func TestRunPlayFlags(t *testing.T) {
	code, out, errs := runCmd(t, "quit\n", "play", "-player", "baseline", "-color", "white", "-time", "20ms")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "baseline plays h8")
	code, _, _ = runCmd(t, "", "play", "-color", "red")
	assert.Equal(t, 2, code)
}
