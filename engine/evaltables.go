package engine

import (
	"bytes"
	"crypto/sha256"
	_ "embed" // the shipped evaluation tables
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Evaluation tables file.
//
// The evaluation is linear in a small set of parameters per rule (EvalParamNames):
// for each colour and role (own: the colour is to move; wait: it is not), a weight per
// direction pattern, per combined level and per pair of the two strongest direction
// patterns, all in eighths of a centi-stone; and tempo terms in centi-stones, added
// when the side to move ("own") or its opponent ("opp") has at least one point of a
// level. The value of a point is the sum of the weights of its four patterns, its level
// and its pair; a table per colour and role holds it for each of the 1001 classes (the
// multisets of four patterns; built once, read-only).
//
// The text format, versioned and checksummed:
//
//	gomoku-eval 1
//	params <n>
//	rule freestyle
//	<name> <integer>        n lines, in EvalParamNames order
//	rule standard
//	...
//	rule renju
//	...
//	sha256 <hex digest of every byte before this line>
//
// Lines starting with '#' before the checksum line are comments (covered by it).

// EvalFormatVersion is the version of the tables file format this engine reads.
const EvalFormatVersion = 1

// Errors of ParseEvalTables.
var (
	ErrEvalChecksum = errors.New("engine: evaluation tables: checksum mismatch (corrupt file)")
	ErrEvalFormat   = errors.New("engine: evaluation tables: bad or mismatched file")
)

//go:embed evaldata/eval.txt
var shippedEval []byte

//go:embed evaldata/hand.txt
var handEval []byte

// Parameter layout of one rule: colour (black, white) x role (own, wait) x
// (patterns, levels, pairs), then tempo (own levels, opponent levels).
const (
	paramsPerRole  = int(numPatterns) + int(numLevels) + numPairs
	paramsTempo    = 2 * int(numLevels)
	numEvalParams  = 2*2*paramsPerRole + paramsTempo
	tempoParamBase = 2 * 2 * paramsPerRole
	maxPointValue  = 1<<15 - 1
)

var (
	patternNames = [numPatterns]string{"none", "1", "C2", "O2", "C3", "O3", "C4", "O4", "44", "5", "over"}
	levelNames   = [numLevels]string{"forbidden", "none", "three", "four", "threethree", "fourthree", "flex", "five"}
)

// roleBase returns the index of the first parameter of colour index ci and role.
func roleBase(ci, role int) int { return (2*ci + role) * paramsPerRole }

// patParam, levelParam and pairParam return parameter indices of colour index ci, role.
func patParam(ci, role int, q pattern) int { return roleBase(ci, role) + int(q) }
func levelParam(ci, role int, l level) int { return roleBase(ci, role) + int(numPatterns) + int(l) }
func pairParam(ci, role int, pair int) int {
	return roleBase(ci, role) + int(numPatterns) + int(numLevels) + pair
}
func tempoParam(opp bool, l level) int {
	if opp {
		return tempoParamBase + int(numLevels) + int(l)
	}
	return tempoParamBase + int(l)
}

// EvalParamNames returns the names of one rule's evaluation parameters, in file order.
func EvalParamNames() []string {
	names := make([]string, numEvalParams)
	for ci, cn := range [2]string{"black", "white"} {
		for role, rn := range [2]string{"own", "wait"} {
			for q := pattern(0); q < numPatterns; q++ {
				names[patParam(ci, role, q)] = fmt.Sprintf("%s.%s.pat.%s", cn, rn, patternNames[q])
			}
			for l := level(0); l < numLevels; l++ {
				names[levelParam(ci, role, l)] = fmt.Sprintf("%s.%s.level.%s", cn, rn, levelNames[l])
			}
			for a := pattern(0); a < numPatterns; a++ {
				for b := pattern(0); b <= a; b++ {
					names[pairParam(ci, role, int(a)*(int(a)+1)/2+int(b))] = fmt.Sprintf("%s.%s.pair.%s+%s", cn, rn, patternNames[a], patternNames[b])
				}
			}
		}
	}
	for l := level(0); l < numLevels; l++ {
		names[tempoParam(false, l)] = "tempo.own." + levelNames[l]
		names[tempoParam(true, l)] = "tempo.opp." + levelNames[l]
	}
	return names
}

// evalTable is one rule's evaluation: the point values of every pattern combination
// per colour (own and wait roles, eighths of a centi-stone) and the tempo terms.
type evalTable struct {
	point    [2][numClasses]pointEntry
	tempoOwn [numLevels]int32
	tempoOpp [numLevels]int32
}

// EvalTables is a read-only set of evaluation tables, one per rule.
type EvalTables struct {
	params [3][]int32
	tables [3]*evalTable
}

var (
	shippedOnce, handOnce     sync.Once
	shippedTables, handTables *EvalTables
)

// ShippedEvalTables returns the fitted tables embedded in the engine (the default).
func ShippedEvalTables() *EvalTables {
	shippedOnce.Do(func() { shippedTables = mustParseEmbedded(shippedEval) })
	return shippedTables
}

// HandEvalTables returns the hand-set tables embedded in the engine (the evaluation
// before tuning), which the levels below master play with.
func HandEvalTables() *EvalTables {
	handOnce.Do(func() { handTables = mustParseEmbedded(handEval) })
	return handTables
}

// mustParseEmbedded parses an embedded tables file. The embedded files are checked by
// the tests; a broken build must not play.
func mustParseEmbedded(data []byte) *EvalTables {
	t, err := ParseEvalTables(data)
	if err != nil {
		panic(err)
	}
	return t
}

// NewEvalTables builds tables from each rule's parameters (EvalParamNames order). It
// fails when a count is wrong or a point value does not fit.
func NewEvalTables(params [3][]int32) (*EvalTables, error) {
	t := new(EvalTables)
	for r := Freestyle; r <= Renju; r++ {
		if len(params[r]) != numEvalParams {
			return nil, fmt.Errorf("%w: %s: %d parameters, want %d", ErrEvalFormat, r, len(params[r]), numEvalParams)
		}
		t.params[r] = append([]int32(nil), params[r]...)
		tab, err := buildEvalTable(r, t.params[r])
		if err != nil {
			return nil, err
		}
		t.tables[r] = tab
	}
	return t, nil
}

// Params returns a copy of one rule's parameters.
func (t *EvalTables) Params(r Rule) []int32 { return append([]int32(nil), t.params[r]...) }

// buildEvalTable tabulates the point values of every pattern combination.
func buildEvalTable(r Rule, w []int32) (*evalTable, error) {
	t := new(evalTable)
	classes := classPatterns()
	for ci := 0; ci < 2; ci++ {
		for i, pats := range classes {
			l := comboLevel(r, ci, &pats)
			t.point[ci][i].lvl = l
			if l == lvForbidden {
				continue
			}
			pair := pairIndex(&pats)
			for role := 0; role < 2; role++ {
				v := w[levelParam(ci, role, l)] + w[pairParam(ci, role, pair)]
				for _, q := range pats {
					v += w[patParam(ci, role, q)]
				}
				if v < -maxPointValue || v > maxPointValue {
					return nil, fmt.Errorf("%w: %s: point value %d out of range", ErrEvalFormat, r, v)
				}
				if role == roleOwn {
					t.point[ci][i].own = int16(v)
				} else {
					t.point[ci][i].wait = int16(v)
				}
			}
		}
	}
	for l := level(0); l < numLevels; l++ {
		t.tempoOwn[l] = w[tempoParam(false, l)]
		t.tempoOpp[l] = w[tempoParam(true, l)]
	}
	return t, nil
}

// Marshal writes the tables in the versioned, checksummed text format; comment lines
// (without the leading "# ") go after the header.
func (t *EvalTables) Marshal(comments ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "gomoku-eval %d\n", EvalFormatVersion)
	for _, c := range comments {
		for _, line := range strings.Split(c, "\n") {
			fmt.Fprintf(&b, "# %s\n", line)
		}
	}
	fmt.Fprintf(&b, "params %d\n", numEvalParams)
	names := EvalParamNames()
	for r := Freestyle; r <= Renju; r++ {
		fmt.Fprintf(&b, "rule %s\n", r)
		for i, v := range t.params[r] {
			fmt.Fprintf(&b, "%s %d\n", names[i], v)
		}
	}
	return appendChecksum(b.Bytes())
}

// appendChecksum appends the checksum line of body (which ends in a newline).
func appendChecksum(body []byte) []byte {
	sum := sha256.Sum256(body)
	return fmt.Appendf(body, "sha256 %s\n", hex.EncodeToString(sum[:]))
}

// ParseEvalTables reads a tables file. A file whose checksum does not match is
// refused with ErrEvalChecksum; a wrong version, rule order, parameter name or count,
// or a value out of range with ErrEvalFormat (the message says where).
func ParseEvalTables(data []byte) (*EvalTables, error) {
	body, tail, ok := cutLastLine(data)
	want, found := strings.CutPrefix(tail, "sha256 ")
	if !ok || !found {
		return nil, fmt.Errorf("%w: no checksum line at the end", ErrEvalChecksum)
	}
	sum := sha256.Sum256(body)
	if hex.EncodeToString(sum[:]) != strings.TrimSpace(want) {
		return nil, ErrEvalChecksum
	}
	lines := strings.Split(strings.TrimSuffix(string(body), "\n"), "\n")
	var rows []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") {
			rows = append(rows, l)
		}
	}
	if len(rows) == 0 || rows[0] != fmt.Sprintf("gomoku-eval %d", EvalFormatVersion) {
		return nil, fmt.Errorf("%w: want header %q", ErrEvalFormat, fmt.Sprintf("gomoku-eval %d", EvalFormatVersion))
	}
	if len(rows) < 2 || rows[1] != fmt.Sprintf("params %d", numEvalParams) {
		return nil, fmt.Errorf("%w: want %q (this engine's parameter set)", ErrEvalFormat, fmt.Sprintf("params %d", numEvalParams))
	}
	rows = rows[2:]
	names := EvalParamNames()
	var params [3][]int32
	for r := Freestyle; r <= Renju; r++ {
		if len(rows) < 1+numEvalParams || rows[0] != "rule "+r.String() {
			return nil, fmt.Errorf("%w: want a %q block of %d parameters", ErrEvalFormat, "rule "+r.String(), numEvalParams)
		}
		params[r] = make([]int32, numEvalParams)
		for i, name := range names {
			f := strings.Fields(rows[1+i])
			if len(f) != 2 || f[0] != name {
				return nil, fmt.Errorf("%w: %s: want parameter %s, got %q", ErrEvalFormat, r, name, rows[1+i])
			}
			v, err := strconv.ParseInt(f[1], 10, 32)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %s: %v", ErrEvalFormat, r, name, err)
			}
			params[r][i] = int32(v)
		}
		rows = rows[1+numEvalParams:]
	}
	if len(rows) != 0 {
		return nil, fmt.Errorf("%w: %d extra lines", ErrEvalFormat, len(rows))
	}
	return NewEvalTables(params)
}

// cutLastLine splits data into everything before its last line and that line.
func cutLastLine(data []byte) (body []byte, last string, ok bool) {
	d := bytes.TrimSuffix(data, []byte("\n"))
	i := bytes.LastIndexByte(d, '\n')
	if i < 0 {
		return nil, "", false
	}
	return data[:i+1], string(d[i+1:]), true
}
