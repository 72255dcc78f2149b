package pairing

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// errBadMatch: a stored or published match could not be read.
var errBadMatch = errors.New("pairing: malformed match")

// netstring splits the netstring (len:value) at the start of s from the rest.
func netstring(s string) (value, rest string, err error) {
	colon := strings.IndexByte(s, ':')
	if colon < 1 || colon > 6 {
		return "", "", errBadMatch
	}
	n, err := strconv.Atoi(s[:colon])
	if err != nil || n < 0 || n > len(s)-colon-1 {
		return "", "", errBadMatch
	}
	return s[colon+1 : colon+1+n], s[colon+1+n:], nil
}

// decodeSettled reads a message of the channel: the outcome (a netstring), then the
// match.
func decodeSettled(s string) (Status, Match, error) {
	o, rest, err := netstring(s)
	if err != nil || (Status(o) != StatusSeated && Status(o) != StatusFailed) {
		return "", Match{}, errBadMatch
	}
	m, err := DecodeMatch(rest)
	return Status(o), m, err
}

// DecodeMatch reads a match as the scripts encode it: eight netstrings (len:value):
// room, pool, black id, name, rating, white id, name, rating.
func DecodeMatch(s string) (Match, error) {
	var f [8]string
	for i := range f {
		var err error
		if f[i], s, err = netstring(s); err != nil {
			return Match{}, err
		}
	}
	if s != "" {
		return Match{}, errBadMatch
	}
	br, err1 := strconv.ParseFloat(f[4], 64)
	wr, err2 := strconv.ParseFloat(f[7], 64)
	if err1 != nil || err2 != nil || math.IsNaN(br+wr) || math.IsInf(br+wr, 0) || f[0] == "" || f[2] == "" || f[5] == "" {
		return Match{}, errBadMatch
	}
	return Match{Room: f[0], Pool: f[1], Black: Seeker{ID: f[2], Name: f[3], Rating: br},
		White: Seeker{ID: f[5], Name: f[6], Rating: wr}}, nil
}

// Encode returns m as the scripts encode it (DecodeMatch reads it).
func (m Match) Encode() string {
	var b strings.Builder
	for _, s := range []string{m.Room, m.Pool, m.Black.ID, m.Black.Name, fnum(m.Black.Rating),
		m.White.ID, m.White.Name, fnum(m.White.Rating)} {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	return b.String()
}
