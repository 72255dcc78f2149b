package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSPSAResumes: a run killed after two iterations (its log cut mid-line) and run
// again with the same flags ends with the same log as an uninterrupted run.
func TestSPSAResumes(t *testing.T) {
	dir := t.TempDir()
	params := filepath.Join(dir, "params.txt")
	require.NoError(t, os.WriteFile(params, []byte("RFPMargin 70 20 200 8 0.02\nLMRDivisor 150 80 300 15 0.02\n"), 0o644))
	spsa := func(log string) string {
		code, out, errs := runCmd(t, "", "spsa", "-params", params, "-log", log, "-iterations", "4", "-nodes", "5000", "-seed", "5")
		require.Equal(t, 0, code, errs)
		require.Contains(t, out, "after 4 of 4 iterations")
		require.Regexp(t, `RFPMargin \d+ \(\d+\.\d\d\) last \d+\.\d\d start 70`, out)
		return out
	}
	whole := filepath.Join(dir, "whole.log")
	out := spsa(whole)
	assert.Contains(t, out, "RFPMargin ")
	assert.Contains(t, out, "LMRDivisor ")
	full, err := os.ReadFile(whole)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(full), "\n")
	require.Len(t, lines, 3+2+4+1, string(full)) // header, params, steps, ""
	require.NotContains(t, string(full), "theta 70 150\n", "θ moved")

	part := filepath.Join(dir, "part.log")
	cut := strings.Join(lines[:7], "") + lines[7][:10]
	require.NoError(t, os.WriteFile(part, []byte(cut), 0o644))
	spsa(part)
	got, err := os.ReadFile(part)
	require.NoError(t, err)
	assert.Equal(t, string(full), string(got))

	// Done: a rerun plays nothing more.
	spsa(part)
	again, err := os.ReadFile(part)
	require.NoError(t, err)
	assert.Equal(t, string(full), string(again))
}

func TestSPSABadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	good := write("good.txt", "RFPMargin 70 20 200 8 0.02\n")
	other := write("other.log", "gomoku-spsa 1\niterations 9\nseed 1\nparam RFPMargin 70 20 200 8 0.02\n")
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"spsa", "-log", filepath.Join(dir, "x.log")}, 2, "-params and -log are required"},
		{[]string{"spsa", "-params", good}, 2, "-params and -log are required"},
		{[]string{"spsa", "-params", write("unknown.txt", "Nope 1 0 2 1 1\n"), "-log", filepath.Join(dir, "u.log")}, 1, `unknown search setting "Nope"`},
		{[]string{"spsa", "-params", write("range.txt", "RFPMargin 70 -5 200 8 0.02\n"), "-log", filepath.Join(dir, "r.log")}, 1, "outside the engine's"},
		{[]string{"spsa", "-params", write("short.txt", "RFPMargin 70 20\n"), "-log", filepath.Join(dir, "s.log")}, 1, "line 1"},
		{[]string{"spsa", "-params", good, "-log", other, "-iterations", "4"}, 1, "log of another run"},
		{[]string{"spsa", "-params", good, "-log", write("junk.log", "junk\n")}, 1, "bad log"},
		{[]string{"spsa", "-params", good, "-log", filepath.Join(dir, "y.log"), "-rule", "gomoku"}, 2, "rule"},
	} {
		code, _, errs := runCmd(t, "", tc.args...)
		assert.Equal(t, tc.code, code, "%v: %s", tc.args, errs)
		assert.Contains(t, errs, tc.msg, "%v", tc.args)
	}
}
