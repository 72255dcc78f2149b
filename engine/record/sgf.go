package record

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
)

// ParseSGF reads the main line of an SGF game tree (FF[4], GM[4]): SZ gives the board
// (15 when absent), RU the rule when it names one the engine knows, AB/AW setup stones
// (placed before the moves, alternating, so they must number as many white as black
// or one black more), and B/W the moves, points written as two letters from "aa" at
// the top left. Of each set of variations the first is the main line; the others are
// read for their syntax only. Only the first game of a collection is read.
func ParseSGF(data []byte) (Game, error) {
	if len(data) > MaxBytes {
		return Game{}, ErrTooLarge
	}
	p := &sgfParser{s: data}
	p.space()
	if p.i >= len(p.s) {
		return Game{}, ErrEmpty
	}
	if err := p.tree(true); err != nil {
		return Game{}, err
	}
	return p.game()
}

// sgfProp is one property of the main line, in order.
type sgfProp struct {
	id   string
	vals []string
	line int
}

type sgfParser struct {
	s     []byte
	i     int
	depth int
	main  []sgfProp
	nodes int
}

const sgfMaxDepth = 64 // nested variations; deeper records are refused, not recursed into

func (p *sgfParser) errorf(err error, text string) error {
	return &SyntaxError{Line: 1 + bytes.Count(p.s[:min(p.i, len(p.s))], []byte("\n")), Err: err, Text: clip(text)}
}

func (p *sgfParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\r' || p.s[p.i] == '\n') {
		p.i++
	}
}

// tree reads "(" sequence tree* ")"; main says whether it lies on the main line.
func (p *sgfParser) tree(main bool) error {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > sgfMaxDepth {
		return p.errorf(ErrSyntax, "variations nested too deep")
	}
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		return p.errorf(ErrSyntax, "expected (")
	}
	p.i++
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != ';' {
		return p.errorf(ErrSyntax, "expected ; after (")
	}
	for p.space(); p.i < len(p.s) && p.s[p.i] == ';'; p.space() {
		p.i++
		if err := p.node(main); err != nil {
			return err
		}
	}
	for first := true; p.i < len(p.s) && p.s[p.i] == '('; first = false {
		if err := p.tree(main && first); err != nil {
			return err
		}
		p.space()
	}
	if p.i >= len(p.s) || p.s[p.i] != ')' {
		return p.errorf(ErrSyntax, "expected )")
	}
	p.i++
	return nil
}

// node reads the properties of one node.
func (p *sgfParser) node(main bool) error {
	if main {
		p.nodes++
	}
	for p.space(); p.i < len(p.s); p.space() {
		start := p.i
		for p.i < len(p.s) && ((p.s[p.i] >= 'A' && p.s[p.i] <= 'Z') || (p.s[p.i] >= 'a' && p.s[p.i] <= 'z')) {
			p.i++
		}
		if p.i == start {
			return nil // the next node, variation or the tree's end
		}
		prop := sgfProp{id: string(p.s[start:p.i]), line: 1 + bytes.Count(p.s[:start], []byte("\n"))}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '[' {
			return p.errorf(ErrSyntax, "expected [ after "+prop.id)
		}
		for p.i < len(p.s) && p.s[p.i] == '[' {
			v, err := p.value()
			if err != nil {
				return err
			}
			prop.vals = append(prop.vals, v)
			p.space()
		}
		if main {
			p.main = append(p.main, prop)
		}
	}
	return nil
}

// value reads "[...]" with its escapes.
func (p *sgfParser) value() (string, error) {
	p.i++ // [
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch c {
		case '\\':
			p.i++
			if p.i < len(p.s) {
				b.WriteByte(p.s[p.i])
			}
		case ']':
			p.i++
			return b.String(), nil
		default:
			b.WriteByte(c)
		}
		p.i++
	}
	return "", p.errorf(ErrSyntax, "unclosed [")
}

// game turns the main line's properties into a Game.
func (p *sgfParser) game() (Game, error) {
	g := Game{Size: engine.DefaultSize}
	for _, pr := range p.main {
		switch pr.id {
		case "SZ":
			w, h, square := strings.Cut(pr.vals[0], ":")
			n, err := strconv.Atoi(strings.TrimSpace(w))
			if err != nil || (square && strings.TrimSpace(h) != strings.TrimSpace(w)) {
				return Game{}, &SyntaxError{Line: pr.line, Err: ErrSize, Text: clip(pr.vals[0])}
			}
			if n < engine.MinSize || n > engine.MaxSize {
				return Game{}, &SyntaxError{Line: pr.line, Err: ErrSize, Text: clip(pr.vals[0])}
			}
			g.Size = n
		case "RU":
			if r, err := engine.ParseRule(strings.ToLower(strings.TrimSpace(pr.vals[0]))); err == nil {
				g.Rule, g.HasRule = r, true
			}
		}
	}
	var black, white []engine.Point
	for _, pr := range p.main {
		switch pr.id {
		case "AB", "AW", "B", "W":
		default:
			continue
		}
		if (pr.id == "B" || pr.id == "W") && len(pr.vals) != 1 {
			return Game{}, &SyntaxError{Line: pr.line, Err: ErrSyntax, Text: pr.id + " takes one point"}
		}
		for _, v := range pr.vals {
			pt, err := sgfPoint(v, g.Size)
			if err != nil {
				return Game{}, &SyntaxError{Line: pr.line, Err: err, Text: clip(pr.id + "[" + v + "]")}
			}
			switch pr.id {
			case "AB":
				black = append(black, pt)
			case "AW":
				white = append(white, pt)
			default:
				if len(black)+len(white) > 0 {
					if len(g.Moves) > 0 {
						return Game{}, &SyntaxError{Line: pr.line, Err: ErrSetup, Text: "setup stones after the moves"}
					}
					// Setup stones come first: interleave them into the move list.
					var err error
					if g.Moves, err = interleave(black, white); err != nil {
						return Game{}, &SyntaxError{Line: pr.line, Err: err}
					}
					black, white = nil, nil
				}
				g.Moves = append(g.Moves, pt)
			}
			if len(g.Moves)+len(black)+len(white) > g.Size*g.Size {
				return Game{}, &SyntaxError{Line: pr.line, Err: ErrSyntax, Text: "more stones than points"}
			}
		}
	}
	if len(black)+len(white) > 0 {
		if len(g.Moves) > 0 {
			return Game{}, &SyntaxError{Line: 1, Err: ErrSetup, Text: "setup stones after the moves"}
		}
		var err error
		if g.Moves, err = interleave(black, white); err != nil {
			return Game{}, &SyntaxError{Line: 1, Err: err}
		}
	}
	return g, nil
}

// sgfPoint reads a two-letter SGF point ("aa" is the top-left corner).
func sgfPoint(v string, size int) (engine.Point, error) {
	v = strings.TrimSpace(v)
	if len(v) != 2 || v[0] < 'a' || v[0] > 'z' || v[1] < 'a' || v[1] > 'z' {
		return engine.NoPoint, ErrSyntax
	}
	pt := engine.Point{X: int(v[0] - 'a'), Y: size - 1 - int(v[1]-'a')}
	if !pt.Valid(size) {
		return engine.NoPoint, ErrOffBoard
	}
	return pt, nil
}

// interleave orders setup stones as moves: black, white, black, …
func interleave(black, white []engine.Point) ([]engine.Point, error) {
	if len(black) != len(white) && len(black) != len(white)+1 {
		return nil, ErrSetup
	}
	out := make([]engine.Point, 0, len(black)+len(white))
	for i := range black {
		out = append(out, black[i])
		if i < len(white) {
			out = append(out, white[i])
		}
	}
	return out, nil
}
