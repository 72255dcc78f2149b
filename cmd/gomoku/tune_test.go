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
	} {
		code, _, errs := runCmd(t, "", tc.args...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errs)
		require.Contains(t, errs, tc.msg, tc.args)
	}
	_, err := os.Stat(filepath.Join(dir, "x"))
	require.ErrorIs(t, err, os.ErrNotExist, "nothing written on bad input")
}
