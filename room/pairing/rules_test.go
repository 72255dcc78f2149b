package pairing

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestRange(t *testing.T) {
	r := Rules{Initial: 100, PerSecond: 10, Max: 600}
	for _, c := range []struct {
		wait time.Duration
		want float64
	}{
		{0, 100},
		{-5 * time.Second, 100}, // another node's clock ahead: no wait, not less
		{500 * time.Millisecond, 105},
		{10 * time.Second, 200},
		{20 * time.Second, 300},
		{50 * time.Second, 600},
		{time.Hour, 600},
	} {
		require.InDelta(t, c.want, r.Range(c.wait), 1e-9, "wait %v", c.wait)
	}
}

func TestCompatible(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	r := DefaultRules
	for _, c := range []struct {
		name   string
		a, b   Seeker
		now    time.Time
		expect bool
	}{
		{"same rating at once", Seeker{Rating: 1500, Since: t0}, Seeker{Rating: 1500, Since: t0}, t0, true},
		{"100 apart at once", Seeker{Rating: 1500, Since: t0}, Seeker{Rating: 1600, Since: t0}, t0, true},
		{"101 apart at once", Seeker{Rating: 1500, Since: t0}, Seeker{Rating: 1601, Since: t0}, t0, false},
		{"250 apart after 14 s", Seeker{Rating: 1500, Since: t0}, Seeker{Rating: 1750, Since: t0}, at(14), false},
		{"250 apart after 15 s", Seeker{Rating: 1500, Since: t0}, Seeker{Rating: 1750, Since: t0}, at(15), true},
		{"the longer wait counts", Seeker{Rating: 1500, Since: t0}, Seeker{Rating: 1800, Since: at(19)}, at(20), true},
		{"order does not matter", Seeker{Rating: 1800, Since: at(19)}, Seeker{Rating: 1500, Since: t0}, at(20), true},
		{"never beyond the maximum", Seeker{Rating: 1000, Since: t0}, Seeker{Rating: 1601, Since: t0}, at(3600), false},
		{"maximum itself", Seeker{Rating: 1000, Since: t0}, Seeker{Rating: 1600, Since: t0}, at(3600), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.expect, r.Compatible(c.a, c.b, c.now))
		})
	}
}

func TestPools(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		base int64
	}{
		{"freestyle-3+2-rated", true, 180_000},
		{"renju-30+20-casual", true, 1_800_000},
		{"standard-1+0-casual", true, 60_000},
		{"freestyle-3+2", false, 0},
		{"freestyle-4+2-casual", false, 0},
		{"Freestyle-3+2-casual", false, 0},
		{"gomoku-3+2-casual", false, 0},
		{"freestyle-3+2-ranked", false, 0},
		{"", false, 0},
	} {
		p, err := ParsePool(c.in)
		if !c.ok {
			require.ErrorIs(t, err, ErrBadPool, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		require.Equal(t, c.in, p.String())
		require.Equal(t, c.base, p.Time().BaseMS)
	}
}

func TestPoolSettingsReserveSeats(t *testing.T) {
	p, err := NewPool("renju", "5+3", true)
	require.NoError(t, err)
	s, err := p.Settings(Match{Black: Seeker{ID: "a"}, White: Seeker{ID: "b"}}).Normalize()
	require.NoError(t, err)
	require.Equal(t, "renju", s.Rule)
	require.Equal(t, int64(3000), s.Time.IncrementMS)
	require.Equal(t, "a", s.Black.Player)
	require.Equal(t, "b", s.White.Player)
	require.True(t, s.Public)
}

func TestMatchEncoding(t *testing.T) {
	m := Match{Room: "r1", Pool: "freestyle-3+2-casual",
		Black: Seeker{ID: "p1", Name: "名字: 1", Rating: 1512.5}, White: Seeker{ID: "p2", Name: "", Rating: 1500}}
	got, err := DecodeMatch(m.Encode())
	require.NoError(t, err)
	require.Equal(t, m, got)
	for _, bad := range []string{"", "2:r1", "x:", m.Encode() + "1:x", "99:r1"} {
		_, err := DecodeMatch(bad)
		require.ErrorIs(t, err, errBadMatch, bad)
	}
	st, got, err := decodeSettled("6:seated" + m.Encode())
	require.NoError(t, err)
	require.Equal(t, StatusSeated, st)
	require.Equal(t, m, got)
	for _, bad := range []string{"", "6:seated", "7:matched" + m.Encode(), "6:failed" + m.Encode() + "1:x"} {
		_, _, err := decodeSettled(bad)
		require.ErrorIs(t, err, errBadMatch, bad)
	}
}

func FuzzDecodeMatch(f *testing.F) {
	f.Add(Match{Room: "r", Pool: "p", Black: Seeker{ID: "a", Rating: 1}, White: Seeker{ID: "b", Rating: 2}}.Encode())
	f.Add("1:a")
	f.Add("6:failed1:r1:p1:a0:1:11:b0:1:2")
	f.Fuzz(func(t *testing.T, s string) {
		if st, m, err := decodeSettled(s); err == nil {
			again, err := DecodeMatch(m.Encode())
			require.NoError(t, err)
			require.Equal(t, m, again)
			require.Contains(t, []Status{StatusSeated, StatusFailed}, st)
		}
		m, err := DecodeMatch(s)
		if err != nil {
			return
		}
		again, err := DecodeMatch(m.Encode())
		require.NoError(t, err)
		require.Equal(t, m, again)
	})
}
