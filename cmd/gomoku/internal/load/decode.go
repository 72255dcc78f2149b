package load

import (
	"encoding/json"
	"strconv"
	"strings"
)

// decodeMsg decodes one server frame into m. The frames every move produces (event,
// ack, error, pong, presence, ai) take a scanner that allocates next to nothing, since
// the load generator's CPU counts against the same cores as the server's; anything it
// does not handle (snapshots, welcome, escaped strings, surprises) goes to
// encoding/json, so both give the same inMsg (FuzzDecodeMsg).
func decodeMsg(data []byte, m *inMsg) error {
	if fastDecode(data, m) {
		return nil
	}
	*m = inMsg{}
	return json.Unmarshal(data, m)
}

// fastDecode reports false when it could not decode data (m is then undefined).
func fastDecode(data []byte, m *inMsg) bool {
	*m = inMsg{}
	s := scanner{b: data}
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			v, ok := s.str()
			m.Type = intern(v)
			return ok
		case "id":
			v, ok := s.str()
			m.ID = string(v)
			return ok
		case "code":
			v, ok := s.str()
			m.Code = intern(v)
			return ok
		case "seq":
			n, ok := s.uint()
			m.Seq = n
			return ok
		case "duplicate":
			v, ok := s.boolean()
			m.Duplicate = v
			return ok
		case "event":
			if s.null() {
				m.Event = nil
				return true
			}
			if m.Event == nil { // encoding/json merges a repeated key's object
				m.Event = &inEvent{}
			}
			return s.event(m.Event)
		case "you", "room":
			return false // welcome and snapshot frames: rare, encoding/json
		}
		return !foldsTo(key, msgKeys) && s.skip()
	})
	return ok && s.end()
}

func (s *scanner) event(e *inEvent) bool {
	return s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "seq":
			e.Seq, ok = s.uint()
		case "game":
			e.Game, ok = s.int()
		case "ply":
			e.Ply, ok = s.int()
		case "plies":
			e.Plies, ok = s.int()
		case "kind", "color", "point", "result":
			var v []byte
			v, ok = s.str()
			str := intern(v)
			switch string(key) {
			case "kind":
				e.Kind = str
			case "color":
				e.Color = str
			case "point":
				e.Point = str
			default:
				e.Result = str
			}
		case "player":
			if s.null() {
				e.Player = nil
				return true
			}
			if e.Player == nil {
				e.Player = &struct {
					ID string `json:"id"`
				}{}
			}
			ok = s.object(func(key []byte) bool {
				if string(key) != "id" {
					return !foldsTo(key, []string{"id"}) && s.skip()
				}
				v, ok := s.str()
				e.Player.ID = string(v)
				return ok
			})
		default:
			ok = !foldsTo(key, eventKeys) && s.skip()
		}
		return ok
	})
}

var (
	msgKeys   = []string{"type", "id", "code", "seq", "duplicate", "event", "you", "room"}
	eventKeys = []string{"seq", "game", "ply", "plies", "kind", "color", "point", "result", "player"}
)

// foldsTo reports whether key matches one of names only without regard to case, which
// encoding/json would accept: left to it.
func foldsTo(key []byte, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(string(key), n) {
			return true
		}
	}
	return false
}

// interned are the strings of frames that repeat with every move: kept once.
var interned = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{"event", "ack", "error", "pong", "presence", "ai", "welcome", "snapshot", "resync",
		"black", "white", "draw", "aborted", "move", "started", "seated", "left", "game_over", "rematch",
		"rematch_offered", "chat", "takeback", "game_over", "not_your_turn", "stale_ply", "rate_limited"} {
		m[s] = s
	}
	for x := range MaxBoardSize {
		for y := range MaxBoardSize {
			n := PointName(x, y)
			m[n] = n
		}
	}
	return m
}()

// intern returns b as a string without allocating when it is a known one.
func intern(b []byte) string {
	if s, ok := interned[string(b)]; ok {
		return s
	}
	return string(b)
}

// scanner reads the JSON the server writes: objects, strings without escapes,
// integers, booleans, null. Anything else makes it give up (the caller falls back).
type scanner struct {
	b     []byte
	i     int
	depth int
}

// maxDepth bounds nesting (deeper input goes to encoding/json).
const maxDepth = 32

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// object calls field at each key, with the scanner at its value, which field must
// consume; it stops at the first false.
func (s *scanner) object(field func(key []byte) bool) bool {
	if s.peek() != '{' || s.depth >= maxDepth {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	s.i++
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		key, ok := s.str()
		if !ok || s.peek() != ':' {
			return false
		}
		s.i++
		if !field(key) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// str returns a string's bytes: printable ASCII without escapes only (the rest, which
// encoding/json unescapes or repairs, goes to it).
func (s *scanner) str() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			return s.b[start:j], true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return nil, false
		}
	}
	return nil, false
}

func (s *scanner) uint() (uint64, bool) {
	s.ws()
	j := s.i
	for j < len(s.b) && s.b[j] >= '0' && s.b[j] <= '9' {
		j++
	}
	if j == s.i || j-s.i > 19 || (s.b[s.i] == '0' && j-s.i > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(s.b[s.i:j]), 10, 64)
	if err != nil || (j < len(s.b) && (s.b[j] == '.' || s.b[j] == 'e' || s.b[j] == 'E')) {
		return 0, false
	}
	s.i = j
	return n, true
}

func (s *scanner) int() (int, bool) {
	neg := s.peek() == '-'
	if neg {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] < '0' || s.b[s.i] > '9') {
			return 0, false
		}
	}
	n, ok := s.uint()
	if !ok || n > 1<<31 {
		return 0, false
	}
	if neg {
		return -int(n), true
	}
	return int(n), true
}

func (s *scanner) literal(word string) bool {
	s.ws()
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

func (s *scanner) boolean() (bool, bool) {
	switch {
	case s.literal("true"):
		return true, true
	case s.literal("false"):
		return false, true
	}
	return false, false
}

func (s *scanner) null() bool { return s.literal("null") }

// skip consumes any value the scanner can read (arrays and floats included).
func (s *scanner) skip() bool {
	switch c := s.peek(); {
	case c == '"':
		_, ok := s.str()
		return ok
	case c == '{':
		return s.object(func([]byte) bool { return s.skip() })
	case c == '[':
		if s.depth >= maxDepth {
			return false
		}
		s.depth++
		defer func() { s.depth-- }()
		s.i++
		if s.peek() == ']' {
			s.i++
			return true
		}
		for {
			if !s.skip() {
				return false
			}
			switch s.peek() {
			case ',':
				s.i++
			case ']':
				s.i++
				return true
			default:
				return false
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		j := s.i + 1
		for j < len(s.b) && (s.b[j] >= '0' && s.b[j] <= '9' || s.b[j] == '.' || s.b[j] == 'e' || s.b[j] == 'E' || s.b[j] == '+' || s.b[j] == '-') {
			j++
		}
		ok := validNumber(s.b[s.i:j])
		s.i = j
		return ok
	case c == 't' || c == 'f':
		_, ok := s.boolean()
		return ok
	case c == 'n':
		return s.null()
	}
	return false
}

// validNumber checks JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}
