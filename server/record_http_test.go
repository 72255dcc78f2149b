package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestRecordOfEveryGame: after a rematch the first game is still served in every
// format, the second too, and a missing or malformed game number has a stable code.
func TestRecordOfEveryGame(t *testing.T) {
	e := newEnv(t, nil)
	pa, pb := e.player("Alice"), e.player("Bob")
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	a, b := e.dial(id), e.dial(id)
	a.hello(pa.Token, 0)
	b.hello(pb.Token, 0)
	requireAck(t, b.cmd(map[string]any{"type": "sit", "color": "white"}))
	// Game 1: Alice (black) h8, Bob a1, then Bob resigns.
	requireAck(t, a.move(0, "h8"))
	requireAck(t, b.move(1, "a1"))
	requireAck(t, b.cmd(map[string]any{"type": "resign"}))
	requireAck(t, a.cmd(map[string]any{"type": "rematch"}))
	requireAck(t, b.cmd(map[string]any{"type": "rematch"}))
	// Game 2: the colours swap; Bob (black) opens j10.
	requireAck(t, b.move(0, "j10"))

	get := func(query string) (int, string, http.Header) {
		res, err := http.Get(e.ts.URL + "/api/rooms/" + id + "/record" + query)
		require.NoError(t, err)
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(body), res.Header
	}
	for _, tc := range []struct {
		query, want, file string
	}{
		{"?game=1&format=sgf", "PB[Alice]PW[Bob]", "gomoku-" + id + "-1.sgf"},
		{"?game=1&format=sgf", "RE[B+R]", ""},
		{"?game=1&format=sgf", ";B[hh]\n;W[ao])", ""},
		{"?game=1", "8,8,0\r\n1,15,0\r\n-1", "gomoku-" + id + "-1.psq"},
		{"?game=2&format=sgf", "PB[Bob]PW[Alice]", "gomoku-" + id + "-2.sgf"},
		{"?game=2&format=psq", "Piskvorky 15x15, 11:11, 0\r\n10,6,0\r\n-1", ""},
		{"?format=sgf", ";B[jf])", "gomoku-" + id + ".sgf"},
		{"?game=1&format=json", `"game":1,"games":2`, ""},
		{"?game=1&format=json", `"moves":["h8","a1"],"result":"black","reason":"resign"`, ""},
		{"?format=json", `"game":2,"games":2`, ""},
	} {
		code, body, h := get(tc.query)
		require.Equal(t, http.StatusOK, code, "%s: %s", tc.query, body)
		assert.Contains(t, body, tc.want, tc.query)
		if tc.file != "" {
			assert.Equal(t, `attachment; filename="`+tc.file+`"`, h.Get("Content-Disposition"), tc.query)
		}
	}
	code, _, h := get("?game=1&format=json")
	require.Equal(t, http.StatusOK, code)
	assert.Empty(t, h.Get("Content-Disposition"), "JSON is for pages, not a download")
	assert.True(t, strings.HasPrefix(h.Get("Content-Type"), "application/json"))

	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/api/rooms/" + id + "/record?game=3", http.StatusNotFound, protocol.CodeNoSuchGame},
		{"/api/rooms/" + id + "/record?game=0", http.StatusBadRequest, protocol.CodeBadRequest},
		{"/api/rooms/" + id + "/record?game=-1", http.StatusBadRequest, protocol.CodeBadRequest},
		{"/api/rooms/" + id + "/record?game=x", http.StatusBadRequest, protocol.CodeBadRequest},
		{"/api/rooms/" + id + "/record?game=99999999999", http.StatusBadRequest, protocol.CodeBadRequest},
		{"/api/rooms/" + id + "/record?game=1&format=pdf", http.StatusBadRequest, protocol.CodeBadRequest},
		{"/api/rooms/nosuchroom/record?game=1", http.StatusNotFound, protocol.CodeNoSuchRoom},
	} {
		var er apiErr
		require.Equal(t, tc.status, e.do("GET", tc.path, "", nil, &er), tc.path)
		assert.Equal(t, tc.code, er.Error.Code, tc.path)
	}
}

func TestRecordGameParam(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"", 0, true}, {"1", 1, true}, {"42", 42, true}, {"999999999", 999999999, true},
		{"0", 0, false}, {"-3", 0, false}, {"1.5", 0, false}, {"+1", 0, false}, {"x", 0, false}, {"1000000000", 0, false},
	} {
		n, err := recordGame(tc.in)
		if !tc.ok {
			require.Error(t, err, tc.in)
			assert.Equal(t, protocol.CodeBadRequest, protocol.Code(err), tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, n, tc.in)
	}
}

func FuzzRecordGame(f *testing.F) {
	for _, s := range []string{"", "1", "0", "-1", "x", "+7", "0001", "99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := recordGame(s)
		if err != nil {
			require.Equal(t, protocol.CodeBadRequest, protocol.Code(err))
			return
		}
		require.True(t, s == "" && n == 0 || n >= 1, "%q -> %d", s, n)
	})
}
