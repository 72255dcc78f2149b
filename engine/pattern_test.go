package engine

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lineKey builds the line key, for colour c, of the point marked '*' in s ('x' black,
// 'o' white, '.' empty, '#' off the board). Cells beyond s are empty, or off the board
// when s starts or ends with '#'.
func lineKey(t *testing.T, s string, c Color) uint16 {
	t.Helper()
	at := strings.IndexByte(s, '*')
	require.GreaterOrEqual(t, at, 0)
	cell := func(k int) uint8 {
		i := at + k
		switch {
		case i < 0 && s[0] == '#', i >= len(s) && s[len(s)-1] == '#':
			return wallCell
		case i < 0 || i >= len(s):
			return 0
		}
		switch s[i] {
		case 'x':
			return uint8(Black)
		case 'o':
			return uint8(White)
		case '#':
			return wallCell
		}
		return 0
	}
	var key uint16
	for k := 1; k <= halfLine; k++ {
		key += keyDigit(cell(-k), int(c-1)) * pow3[keySlot(-k)]
		key += keyDigit(cell(k), int(c-1)) * pow3[keySlot(k)]
	}
	return key
}

func TestPatternClassification(t *testing.T) {
	type want struct{ free, std, renju pattern }
	all := func(p pattern) want { return want{p, p, p} }
	for _, tc := range []struct {
		line  string
		color Color
		want  want
	}{
		{"xxxx*", Black, all(pat5)},
		{"xx*xx", Black, all(pat5)},
		{"xxxx*x", Black, want{pat5, patNone, patOver}},
		{"oooo*o", White, want{pat5, patNone, pat5}},
		{"..xxx*..", Black, all(patO4)},
		{"#xxx*.", Black, all(patC4)},
		{"oxxx*.", Black, all(patC4)},
		{"x.xxx*..", Black, want{patO4, patC4, patC4}},
		{"o.xxx*.o", Black, all(patO4)},
		{".xx.x*.", Black, all(patC4)},
		{".x.x*x.x.", Black, all(pat44)},
		{"..xx*...", Black, all(patO3)},
		{"..x.x*...", Black, all(patO3)},
		{"..x*.x..", Black, all(patO3)},
		{"#xx*...", Black, all(patC3)},
		{"o.xx*.o", Black, all(patC3)},
		{"...x*....", Black, all(patO2)},
		{"....*....", Black, all(pat1)},
		{"o..*.o", Black, all(patNone)},
		{"#..*.#", White, all(patNone)},
		{"..ooo*..", White, all(patO4)},
		{"..xxx*..", White, all(pat1)},
		{"x*...x", White, all(patNone)},
		{".x.xxx*.x", Black, want{patO4, patNone, patNone}},
	} {
		for _, r := range []struct {
			rule Rule
			want pattern
		}{{Freestyle, tc.want.free}, {Standard, tc.want.std}, {Renju, tc.want.renju}} {
			got := patternsFor(r.rule).line[tc.color-1][lineKey(t, tc.line, tc.color)]
			assert.Equal(t, r.want, got, "%s %s for %s", tc.line, r.rule, tc.color)
		}
	}
}

func TestCombinedLevels(t *testing.T) {
	var p position
	p.rule = Freestyle
	p.tab = patternsFor(Freestyle)
	p.ev = ShippedEvalTables().tables[Freestyle]
	for _, tc := range []struct {
		pats [4]pattern
		want level
	}{
		{[4]pattern{pat5, patNone, patNone, patNone}, lvFive},
		{[4]pattern{patO4, patNone, patNone, patNone}, lvFlex},
		{[4]pattern{patC4, patC4, patNone, patNone}, lvFlex},
		{[4]pattern{pat44, pat1, patNone, patNone}, lvFlex},
		{[4]pattern{patC4, patO3, patNone, patNone}, lvFourThree},
		{[4]pattern{patO3, patO3, patC3, patNone}, lvThreeThree},
		{[4]pattern{patC4, patC3, patO2, patNone}, lvFour},
		{[4]pattern{patO3, patC3, patNone, patNone}, lvThree},
		{[4]pattern{patC3, patO2, patO2, pat1}, lvNone},
	} {
		got, _ := p.combine(0, &tc.pats)
		assert.Equal(t, tc.want, got, "%v", tc.pats)
	}
	p.rule = Renju
	p.tab = patternsFor(Renju)
	p.ev = ShippedEvalTables().tables[Renju]
	for _, pats := range [][4]pattern{{patC4, patC4}, {patOver}, {pat44}, {patO4, patC4}} {
		got, v := p.combine(0, &pats)
		assert.Equal(t, lvForbidden, got, "%v", pats)
		assert.Zero(t, v)
		got, _ = p.combine(1, &pats)
		assert.NotEqual(t, lvForbidden, got, "white %v", pats)
	}
}

// TestPrepare: Prepare builds a rule's pattern table and the evaluation tables, and
// ignores a rule that does not exist. Other tests of the package build the tables too,
// so the check runs in a fresh process of this test binary, where nothing has yet.
func TestPrepare(t *testing.T) {
	if os.Getenv("ENGINE_PREPARE_CHILD") == "1" {
		require.Nil(t, patternTables[Renju], "built before Prepare")
		require.Nil(t, shippedTables, "built before Prepare")
		require.Nil(t, handTables, "built before Prepare")
		Prepare(Renju)
		assert.NotNil(t, patternTables[Renju])
		assert.Nil(t, patternTables[Freestyle], "only the rule asked for")
		assert.NotNil(t, shippedTables)
		assert.NotNil(t, handTables)
		assert.NotPanics(t, func() { Prepare(Rule(7)) })
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestPrepare$", "-test.count", "1")
	cmd.Env = append(os.Environ(), "ENGINE_PREPARE_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}
