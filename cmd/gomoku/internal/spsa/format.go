package spsa

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ParseParams reads a parameter file: one parameter a line, "name start min max
// c_end r_end", blank lines and lines starting with # ignored.
func ParseParams(r io.Reader) ([]Param, error) {
	var ps []Param
	sc := bufio.NewScanner(r)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := parseParam(strings.Fields(line))
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", ln, err)
		}
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%w: the file lists none", ErrParams)
	}
	return ps, nil
}

func parseParam(f []string) (Param, error) {
	if len(f) != 6 {
		return Param{}, fmt.Errorf("%w: want \"name start min max c_end r_end\", got %d fields", ErrParams, len(f))
	}
	var v [5]float64
	for i := range v {
		x, err := strconv.ParseFloat(f[i+1], 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Param{}, fmt.Errorf("%w: %s: %q is not a number", ErrParams, f[0], f[i+1])
		}
		v[i] = x
	}
	return Param{Name: f[0], Start: v[0], Min: v[1], Max: v[2], CEnd: v[3], REnd: v[4]}, nil
}

// paramLine is a parameter as the parameter file and the log write it.
func paramLine(p Param) string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return strings.Join([]string{p.Name, g(p.Start), g(p.Min), g(p.Max), g(p.CEnd), g(p.REnd)}, " ")
}

// The log of a run, its checkpoint: a header naming the run, then one line per
// applied iteration with θ after it, in the order they were applied:
//
//	gomoku-spsa 1
//	iterations 3000
//	seed 1
//	param RFPMargin 70 20 200 10 0.002
//	...
//	k 0 result 1 plus 74 ... minus 66 ... theta 70.31 ...
const logVersion = "gomoku-spsa 1"

// ErrLog is returned for a log that cannot be read or belongs to another run.
var ErrLog = errors.New("spsa: bad log")

// WriteHeader writes a log's header for t's run with the given seed.
func WriteHeader(w io.Writer, t *Tuner, seed uint64) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\niterations %d\nseed %d\n", logVersion, t.iterations, seed)
	for _, p := range t.params {
		fmt.Fprintf(&b, "param %s\n", paramLine(p))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteStep writes one applied iteration with θ after it.
func WriteStep(w io.Writer, st Step, result float64, theta []float64) error {
	var b strings.Builder
	fmt.Fprintf(&b, "k %d result %g plus", st.K, result)
	for _, v := range st.Plus {
		fmt.Fprintf(&b, " %d", v)
	}
	b.WriteString(" minus")
	for _, v := range st.Minus {
		fmt.Fprintf(&b, " %d", v)
	}
	b.WriteString(" theta")
	for _, v := range theta {
		b.WriteString(" " + strconv.FormatFloat(v, 'g', -1, 64)) // exact: a resumed run goes on from the same θ
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// Log is a read log: its run and where it stands.
type Log struct {
	Iterations int
	Seed       uint64
	Params     []Param
	Theta      []float64 // after the last applied iteration (nil: none applied)
	Done       int       // iterations applied
	NextK      int       // one past the highest iteration number applied
	// Results sums the results of the applied iterations (the Plus side's wins
	// minus losses).
	Results float64
	thetas  [][]float64 // θ after each applied iteration, in order
}

// MeanTheta returns θ averaged over the second half of the applied iterations (nil:
// none applied). SPSA's last θ still moves with the noise of the last games; the mean
// of its path over the second half (Polyak averaging) is the steadier estimate.
func (l Log) MeanTheta() []float64 {
	if len(l.thetas) == 0 {
		return nil
	}
	tail := l.thetas[len(l.thetas)/2:]
	mean := make([]float64, len(tail[0]))
	for _, th := range tail {
		for i, v := range th {
			mean[i] += v / float64(len(tail))
		}
	}
	return mean
}

// ReadLog reads a log. A last line cut short (the run killed while writing it) is
// ignored; any other malformed line is an error.
func ReadLog(r io.Reader) (Log, error) {
	var l Log
	data, err := io.ReadAll(r)
	if err != nil {
		return l, err
	}
	text := string(data)
	lines := strings.Split(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1] // an unfinished last line
	}
	if len(lines) < 3 || lines[0] != logVersion {
		return l, fmt.Errorf("%w: no %q header", ErrLog, logVersion)
	}
	if _, err := fmt.Sscanf(lines[1], "iterations %d", &l.Iterations); err != nil || l.Iterations <= 0 {
		return l, fmt.Errorf("%w: line 2: want \"iterations N\"", ErrLog)
	}
	if _, err := fmt.Sscanf(lines[2], "seed %d", &l.Seed); err != nil {
		return l, fmt.Errorf("%w: line 3: want \"seed N\"", ErrLog)
	}
	for i, line := range lines[3:] {
		ln := i + 4
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "param" && l.Done == 0:
			p, err := parseParam(f[1:])
			if err != nil {
				return l, fmt.Errorf("%w: line %d: %v", ErrLog, ln, err)
			}
			l.Params = append(l.Params, p)
		case f[0] == "k":
			k, res, theta, err := parseStep(f, len(l.Params))
			if err != nil {
				return l, fmt.Errorf("%w: line %d: %v", ErrLog, ln, err)
			}
			l.Theta, l.Results = theta, l.Results+res
			l.thetas = append(l.thetas, theta)
			l.Done++
			l.NextK = max(l.NextK, k+1)
		default:
			return l, fmt.Errorf("%w: line %d: unexpected %q", ErrLog, ln, f[0])
		}
	}
	if len(l.Params) == 0 {
		return l, fmt.Errorf("%w: no parameters", ErrLog)
	}
	return l, nil
}

// parseStep reads "k K result R plus … minus … theta …" for n parameters.
func parseStep(f []string, n int) (k int, result float64, theta []float64, err error) {
	if len(f) != 4+3+3*n || f[2] != "result" || f[4] != "plus" || f[5+n] != "minus" || f[6+2*n] != "theta" {
		return 0, 0, nil, errors.New("want \"k K result R plus … minus … theta …\"")
	}
	if k, err = strconv.Atoi(f[1]); err != nil || k < 0 {
		return 0, 0, nil, fmt.Errorf("iteration %q", f[1])
	}
	if result, err = strconv.ParseFloat(f[3], 64); err != nil || result < -2 || result > 2 {
		return 0, 0, nil, fmt.Errorf("result %q", f[3])
	}
	for _, s := range f[7+2*n:] {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, nil, fmt.Errorf("theta %q", s)
		}
		theta = append(theta, v)
	}
	return k, result, theta, nil
}

// SameRun reports whether the log is of a run over params for the given iterations
// and seed.
func (l Log) SameRun(params []Param, iterations int, seed uint64) bool {
	if l.Iterations != iterations || l.Seed != seed || len(l.Params) != len(params) {
		return false
	}
	for i, p := range params {
		if paramLine(p) != paramLine(l.Params[i]) {
			return false
		}
	}
	return true
}
