// Package gomocup is the line codec of the Gomocup (Piskvork) brain protocol
// (https://plastovicka.github.io/protocl2en.htm): the manager's commands as a brain
// reads them, the brain's replies as a manager reads them, and the INFO rule mask.
// It is shared by the pbrain-gomoku brain and the external-engine player.
package gomocup

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
)

// Decoding errors.
var (
	ErrEmpty    = errors.New("gomocup: empty line")
	ErrSyntax   = errors.New("gomocup: malformed arguments")
	ErrLineLong = errors.New("gomocup: line too long")
)

// MaxLineBytes is the longest line the decoders accept.
const MaxLineBytes = 4096

// CmdKind is the kind of a manager command.
type CmdKind uint8

// Manager commands. CmdStone is a "x,y,field" line inside a BOARD block.
const (
	CmdUnknown CmdKind = iota
	CmdStart
	CmdRectStart
	CmdRestart
	CmdBegin
	CmdTurn
	CmdBoard
	CmdStone
	CmdDone
	CmdInfo
	CmdTakeback
	CmdEnd
	CmdAbout
)

// Board fields of a CmdStone line.
const (
	FieldOwn        = 1
	FieldOpponent   = 2
	FieldContinuous = 3
)

// Command is one decoded manager line.
type Command struct {
	Kind  CmdKind
	Name  string // the command word in upper case (for UNKNOWN replies)
	Size  int    // START
	W, H  int    // RECTSTART
	X, Y  int    // TURN, TAKEBACK, stone lines (Gomocup coordinates: from the top left)
	Field int    // stone lines
	Key   string // INFO key (lower case)
	Value string // INFO value
}

// trimLine strips a trailing CR/LF (managers send either) and surrounding blanks.
func trimLine(line string) string {
	return strings.TrimSpace(strings.TrimRight(line, "\r\n"))
}

// ParseCommand decodes one line sent by a manager. Unknown commands decode as
// CmdUnknown without error; known commands with bad arguments return ErrSyntax.
func ParseCommand(line string) (Command, error) {
	if len(line) > MaxLineBytes {
		return Command{}, ErrLineLong
	}
	line = trimLine(line)
	if line == "" {
		return Command{}, ErrEmpty
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	name := strings.ToUpper(word)
	c := Command{Name: name}
	var err error
	switch name {
	case "START":
		c.Kind = CmdStart
		c.Size, err = atoi(rest)
	case "RECTSTART":
		c.Kind = CmdRectStart
		var v []int
		v, err = ints(rest, 2)
		if err == nil {
			c.W, c.H = v[0], v[1]
		}
	case "RESTART":
		c.Kind = CmdRestart
	case "BEGIN":
		c.Kind = CmdBegin
	case "TURN", "TAKEBACK":
		c.Kind = CmdTurn
		if name == "TAKEBACK" {
			c.Kind = CmdTakeback
		}
		var v []int
		v, err = ints(rest, 2)
		if err == nil {
			c.X, c.Y = v[0], v[1]
		}
	case "BOARD":
		c.Kind = CmdBoard
	case "DONE":
		c.Kind = CmdDone
	case "INFO":
		c.Kind = CmdInfo
		k, v, _ := strings.Cut(rest, " ")
		c.Key, c.Value = strings.ToLower(k), strings.TrimSpace(v)
		if c.Key == "" {
			err = ErrSyntax
		}
	case "END":
		c.Kind = CmdEnd
	case "ABOUT":
		c.Kind = CmdAbout
	default:
		if v, e := ints(line, 3); e == nil {
			c = Command{Kind: CmdStone, Name: "STONE", X: v[0], Y: v[1], Field: v[2]}
			if c.Field < FieldOwn || c.Field > FieldContinuous {
				err = ErrSyntax
			}
		}
	}
	if err != nil {
		return Command{Kind: c.Kind, Name: c.Name}, err
	}
	return c, nil
}

func atoi(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > 1000 {
		return 0, ErrSyntax
	}
	return n, nil
}

// ints parses exactly n comma-separated non-negative integers.
func ints(s string, n int) ([]int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != n {
		return nil, ErrSyntax
	}
	out := make([]int, n)
	for i, p := range parts {
		v, err := atoi(p)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// ReplyKind is the kind of a brain reply.
type ReplyKind uint8

// Brain replies.
const (
	ReplyGarbage ReplyKind = iota // anything the protocol does not define
	ReplyMove                     // "x,y"
	ReplyOK
	ReplyError
	ReplyUnknown
	ReplyMessage
	ReplyDebug
	ReplySuggest
	ReplyAbout // a key="value" list answering ABOUT
)

// Reply is one decoded brain line.
type Reply struct {
	Kind ReplyKind
	X, Y int    // ReplyMove, ReplySuggest
	Text string // the rest of the line
}

// ParseReply decodes one line sent by a brain. Lines that are none of the protocol's
// replies decode as ReplyGarbage (no error); only empty and oversized lines fail.
func ParseReply(line string) (Reply, error) {
	if len(line) > MaxLineBytes {
		return Reply{}, ErrLineLong
	}
	line = trimLine(line)
	if line == "" {
		return Reply{}, ErrEmpty
	}
	if v, err := ints(line, 2); err == nil {
		return Reply{Kind: ReplyMove, X: v[0], Y: v[1]}, nil
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToUpper(word) {
	case "OK":
		return Reply{Kind: ReplyOK, Text: rest}, nil
	case "ERROR":
		return Reply{Kind: ReplyError, Text: rest}, nil
	case "UNKNOWN":
		return Reply{Kind: ReplyUnknown, Text: rest}, nil
	case "MESSAGE":
		return Reply{Kind: ReplyMessage, Text: rest}, nil
	case "DEBUG":
		return Reply{Kind: ReplyDebug, Text: rest}, nil
	case "SUGGEST":
		if v, err := ints(rest, 2); err == nil {
			return Reply{Kind: ReplySuggest, X: v[0], Y: v[1]}, nil
		}
	}
	if strings.Contains(line, "name=\"") {
		return Reply{Kind: ReplyAbout, Text: line}, nil
	}
	return Reply{Kind: ReplyGarbage, Text: line}, nil
}

// RuleFromMask maps the INFO rule bit mask to a rule: bit 4 (renju) wins, then bit 1
// (exactly five: standard); otherwise freestyle. The continuous-game bit 2 and the
// caro bit 8 are not supported; ok reports whether the mask was fully understood.
func RuleFromMask(mask int) (r engine.Rule, ok bool) {
	ok = mask&^5 == 0
	switch {
	case mask&4 != 0:
		return engine.Renju, ok
	case mask&1 != 0:
		return engine.Standard, ok
	}
	return engine.Freestyle, ok
}

// MaskFromRule returns the INFO rule bit mask of a rule.
func MaskFromRule(r engine.Rule) int {
	switch r {
	case engine.Standard:
		return 1
	case engine.Renju:
		return 4
	}
	return 0
}

// ToPoint converts Gomocup coordinates (from the top left) to a board point; it fails
// for points off a board of the given size.
func ToPoint(x, y, size int) (engine.Point, error) {
	p := engine.Point{X: x, Y: size - 1 - y}
	if !p.Valid(size) {
		return engine.NoPoint, engine.ErrOffBoard
	}
	return p, nil
}

// FromPoint converts a board point to Gomocup coordinates.
func FromPoint(p engine.Point, size int) (x, y int) { return p.X, size - 1 - p.Y }

// FormatMove writes a point as a "x,y" move line (without line end).
func FormatMove(p engine.Point, size int) string { return engine.FormatGomocup(p, size) }

// AboutLine formats the answer to ABOUT.
func AboutLine(name, version, author, country string) string {
	q := func(s string) string { return strings.ReplaceAll(s, "\"", "'") }
	return `name="` + q(name) + `", version="` + q(version) + `", author="` + q(author) + `", country="` + q(country) + `"`
}
