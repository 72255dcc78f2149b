package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEInvariants: the README's numbered invariants cite tests that exist, and every
// "invariant N" a Go or JavaScript comment cites is one of them.
func TestREADMEInvariants(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(raw), "\n## Invariants\n")
	require.True(t, ok, "README.md has no \"## Invariants\" section")
	section, _, _ = strings.Cut(section, "\n## ")

	items := regexp.MustCompile(`(?m)^(\d+)\. `).FindAllStringSubmatchIndex(section, -1)
	require.NotEmpty(t, items, "no numbered invariants")
	for i, m := range items {
		n, _ := strconv.Atoi(section[m[2]:m[3]])
		require.Equal(t, i+1, n, "invariants are numbered 1, 2, 3 … in order")
		end := len(section)
		if i+1 < len(items) {
			end = items[i+1][0]
		}
		assert.Regexp(t, "`(Test|Fuzz)\\w+`", section[m[0]:end], "invariant %d cites no test", n)
	}

	defined := map[string]bool{}
	var cites []string // "file: invariant N"
	citeRE := regexp.MustCompile(`(?i)invariant[ -](\d+)`)
	err = filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "node_modules" || (strings.HasPrefix(name, ".") && name != "." && name != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".go" && ext != ".js" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, "_test.go") {
			for _, m := range regexp.MustCompile(`(?m)^func ((?:Test|Fuzz)\w+)\(`).FindAllStringSubmatch(string(b), -1) {
				defined[m[1]] = true
			}
		}
		for _, m := range citeRE.FindAllStringSubmatch(string(b), -1) {
			cites = append(cites, path+": invariant "+m[1])
		}
		return nil
	})
	require.NoError(t, err)

	for _, m := range regexp.MustCompile("`((?:Test|Fuzz)\\w+)`").FindAllStringSubmatch(section, -1) {
		assert.True(t, defined[m[1]], "README invariants cite %s, which no _test.go file defines", m[1])
	}
	for _, c := range cites {
		n, _ := strconv.Atoi(c[strings.LastIndex(c, " ")+1:])
		assert.True(t, n >= 1 && n <= len(items), "%s: the README has invariants 1 to %d", c, len(items))
	}
}
