package engine

import "errors"

// Rule is the rule set a game is played under.
type Rule uint8

// The supported rule sets.
const (
	// Freestyle: five or more stones in a row win, for both colours.
	Freestyle Rule = iota
	// Standard: exactly five in a row wins; an overline (six or more) wins for nobody.
	Standard
	// Renju: black wins only with exactly five and may not play an overline, a
	// double-four or a double-three; white wins with five or more.
	Renju
)

// Rules returns every supported rule set, in the order of their values (a new slice).
func Rules() []Rule { return []Rule{Freestyle, Standard, Renju} }

// ErrBadRule is returned by ParseRule for an unknown rule name.
var ErrBadRule = errors.New("engine: unknown rule (want freestyle, standard or renju)")

// String returns the rule's lower-case name as used in the protocol.
func (r Rule) String() string {
	switch r {
	case Freestyle:
		return "freestyle"
	case Standard:
		return "standard"
	case Renju:
		return "renju"
	}
	return "unknown"
}

// ParseRule parses a rule name ("freestyle", "standard", "renju").
func ParseRule(s string) (Rule, error) {
	switch s {
	case "freestyle":
		return Freestyle, nil
	case "standard":
		return Standard, nil
	case "renju":
		return Renju, nil
	}
	return Freestyle, ErrBadRule
}

// Color is the content of a point or the side to move.
type Color uint8

// Point contents. Black moves first.
const (
	Empty Color = iota
	Black
	White
)

// Opponent returns the other colour (Empty for Empty).
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "black", "white" or "empty".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "empty"
}

// Forbidden is the kind of a renju forbidden point.
type Forbidden uint8

// Kinds of forbidden points (renju, black only).
const (
	NotForbidden Forbidden = iota
	DoubleThree
	DoubleFour
	Overline
)

// String returns the forbidden kind's name ("double_three", "double_four", "overline").
func (f Forbidden) String() string {
	switch f {
	case DoubleThree:
		return "double_three"
	case DoubleFour:
		return "double_four"
	case Overline:
		return "overline"
	}
	return "none"
}
