package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

// TestTuneGenResumes checks that an interrupted generation continues where it stopped
// and gives the same file as an uninterrupted run.
func TestTuneGenResumes(t *testing.T) {
	dir := t.TempDir()
	part, whole := filepath.Join(dir, "part.txt"), filepath.Join(dir, "whole.txt")
	gen := func(path, games string) {
		code, out, errs := runCmd(t, "", "tune", "-gen", "-out", path, "-games", games, "-nodes", "200", "-seed", "3", "-quiet")
		require.Equal(t, 0, code, errs)
		require.Contains(t, out, games+" games")
	}
	gen(part, "2")
	gen(part, "3")
	gen(part, "3") // nothing left to do
	gen(whole, "3")
	a, err := os.ReadFile(part)
	require.NoError(t, err)
	b, err := os.ReadFile(whole)
	require.NoError(t, err)
	require.Equal(t, string(b), string(a))

	// Fitting them writes a tables file the engine accepts.
	tables := filepath.Join(dir, "eval.txt")
	code, out, errs := runCmd(t, "", "tune", "-data", whole, "-out", tables, "-iters", "5", "-quiet")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "wrote")
	raw, err := os.ReadFile(tables)
	require.NoError(t, err)
	_, err = engine.ParseEvalTables(raw)
	require.NoError(t, err)
}

func TestTuneBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("freestyle 15 draw 0 h8h8\n"), 0o644))
	corrupt := filepath.Join(dir, "corrupt.txt")
	require.NoError(t, os.WriteFile(corrupt, []byte("gomoku-eval 1\nsha256 00\n"), 0o644))
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"tune"}, 2, "-out is required"},
		{[]string{"tune", "-out", filepath.Join(dir, "x")}, 2, "needs -data"},
		{[]string{"tune", "-gen", "-out", filepath.Join(dir, "x"), "-rules", "gomoku"}, 2, "unknown rule"},
		{[]string{"tune", "-data", bad, "-out", filepath.Join(dir, "x")}, 1, "line 1"},
		{[]string{"tune", "-gen", "-out", bad, "-games", "1"}, 1, "truncate the file"},
		{[]string{"tune", "-data", bad, "-init", corrupt, "-out", filepath.Join(dir, "x")}, 1, "checksum"},
		{[]string{"tune", "-label", "-data", bad, "-out", filepath.Join(dir, "x")}, 2, "-label needs -data and -teacher"},
		{[]string{"tune", "-label", "-data", bad, "-teacher", "t", "-teacher-nodes", "0", "-out", filepath.Join(dir, "x")}, 2, "must be positive"},
		{[]string{"tune", "-data", bad, "-score-scale", "-1", "-out", filepath.Join(dir, "x")}, 2, "-score-scale -1 is negative"},
	} {
		code, _, errs := runCmd(t, "", tc.args...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errs)
		require.Contains(t, errs, tc.msg, tc.args)
	}
	_, err := os.Stat(filepath.Join(dir, "x"))
	require.ErrorIs(t, err, os.ErrNotExist, "nothing written on bad input")
}

// TestTuneLabel labels games with a teacher brain (a script that reports "Eval 7"),
// resumes after the games already labelled, and refuses an output that holds other
// games.
func TestTuneLabel(t *testing.T) {
	dir := t.TempDir()
	teacher := filepath.Join(dir, "pbrain-teacher")
	script := `#!/bin/sh
while read -r line; do
  case "$line" in
    START*) echo OK ;;
    DONE*|BEGIN*|TURN*) echo 'MESSAGE Depth 5-5 | Eval 7 | Time 1ms'; echo 0,0 ;;
  esac
done
`
	require.NoError(t, os.WriteFile(teacher, []byte(script), 0o755))
	games := filepath.Join(dir, "games.txt")
	require.NoError(t, os.WriteFile(games, []byte("freestyle 15 draw 3 h8i9g7h7g9g8f8 3,999990,5,6\nfreestyle 15 draw 3 h8i9g7h7g9 -4,8\n"), 0o644))
	first := filepath.Join(dir, "first.txt")
	require.NoError(t, os.WriteFile(first, []byte("freestyle 15 draw 3 h8i9g7h7g9 -4,8\n"), 0o644))

	out := filepath.Join(dir, "labelled.txt")
	label := func(data string) (int, string, string) {
		return runCmd(t, "", "tune", "-label", "-data", data, "-teacher", teacher, "-teacher-nodes", "500", "-concurrency", "2", "-out", out, "-quiet")
	}
	code, stdout, errs := label(games)
	require.Equal(t, 0, code, errs)
	require.Contains(t, stdout, "2 games (5 positions valued by the teacher in this run)")
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(raw), "freestyle 15 draw 3 h8i9g7h7g9g8f8 7,999990,7,7\nfreestyle 15 draw 3 h8i9g7h7g9 7,7\n")

	code, stdout, errs = label(games)
	require.Equal(t, 0, code, errs)
	require.Contains(t, stdout, "(0 positions valued")

	code, _, errs = label(first)
	require.Equal(t, 1, code)
	require.Contains(t, errs, "more than the 1")
	require.NoError(t, os.Remove(out))
	code, _, errs = label(first)
	require.Equal(t, 0, code, errs)
	code, _, errs = label(games)
	require.Equal(t, 1, code)
	require.Contains(t, errs, "game 1 is not game 1")
}
