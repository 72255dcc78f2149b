package server

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// finishedGame plays a game to black's five: h8 a1 i8 a2 j8 a3 k8 a4 l8.
func finishedGame(t *testing.T, e *testEnv) string {
	t.Helper()
	return finishedGameOf(t, e, e.player("Alice"), e.player("Bob"))
}

// finishedGameOf is finishedGame between the players pa (black) and pb.
func finishedGameOf(t *testing.T, e *testEnv, pa, pb player) string {
	t.Helper()
	id := e.createRoom(pa.Token, map[string]any{"me": "black"})
	a, b := e.dial(id), e.dial(id)
	a.hello(pa.Token, 0)
	b.hello(pb.Token, 0)
	requireAck(t, b.cmd(map[string]any{"type": "sit", "color": "white"}))
	for i, mv := range strings.Fields("h8 a1 i8 a2 j8 a3 k8 a4 l8") {
		c := a
		if i%2 == 1 {
			c = b
		}
		requireAck(t, c.move(i, mv))
	}
	a.sawEvent("game_over")
	return id
}

type analysisJSON struct {
	Room      string `json:"room"`
	Game      int    `json:"game"`
	Status    string `json:"status"`
	Total     int    `json:"total"`
	Moves     []string
	Positions []struct {
		Ply    int     `json:"ply"`
		Black  float64 `json:"black"`
		Best   string  `json:"best"`
		Played string  `json:"played"`
		Mark   string  `json:"mark"`
	} `json:"positions"`
}

func TestAnalysisEndpoints(t *testing.T) {
	e := newEnv(t, nil)
	id := finishedGame(t, e)
	path := "/api/rooms/" + id + "/analysis"

	var er struct{ Error protocol.Error }
	require.Equal(t, http.StatusNotFound, e.do("GET", path, "", nil, &er), "not analysed yet")
	require.Equal(t, protocol.CodeNotFound, er.Error.Code)

	var got analysisJSON
	require.Equal(t, http.StatusAccepted, e.do("POST", path, "", nil, &got))
	assert.Equal(t, id, got.Room)
	assert.Equal(t, 1, got.Game)
	assert.Contains(t, []string{"running", "done"}, got.Status)
	assert.Equal(t, 10, got.Total)
	require.Eventually(t, func() bool {
		got = analysisJSON{}
		return e.do("GET", path+"?game=1", "", nil, &got) == http.StatusOK && got.Status == "done"
	}, 2*time.Minute, 20*time.Millisecond)
	require.Len(t, got.Positions, 10)
	assert.Equal(t, "h8", got.Positions[0].Played)
	assert.Equal(t, 1.0, got.Positions[9].Black, "black made five")
	assert.Equal(t, "g8", got.Positions[8].Best, "the open four's five point")

	// A second request finds it done: nothing computed again.
	require.Equal(t, http.StatusAccepted, e.do("POST", path, "", nil, &got))
	assert.Equal(t, "done", got.Status)

	sgf := e.raw("GET", path+"?format=sgf", nil)
	require.Equal(t, http.StatusOK, sgf.status, string(sgf.body))
	assert.Contains(t, string(sgf.body), "GN["+id+" game 1 analysis]")
	assert.Contains(t, string(sgf.body), ";B[hh]C[Black ")
	assert.Contains(t, string(sgf.body), "VCF win for black")
	assert.Contains(t, string(sgf.body), ";W[am]C[Black 100%. Threat left unanswered", "white left the open three j8-h8")

	for _, tc := range []struct {
		method, path, code string
	}{
		{"GET", path + "?game=x", protocol.CodeBadRequest},
		{"GET", path + "?game=2", protocol.CodeNoSuchGame},
		{"GET", path + "?format=psq", protocol.CodeBadRequest},
		{"POST", "/api/rooms/nope/analysis", protocol.CodeNoSuchRoom},
	} {
		er.Error = protocol.Error{}
		status := e.do(tc.method, tc.path, "", nil, &er)
		assert.Equal(t, tc.code, er.Error.Code, tc.path)
		assert.Equal(t, protocol.HTTPStatus(tc.code), status, tc.path)
	}

	// A game in play is not analysed.
	pa := e.player("Carol")
	live := e.createRoom(pa.Token, map[string]any{"me": "black"})
	require.Equal(t, http.StatusConflict, e.do("POST", "/api/rooms/"+live+"/analysis", "", nil, &er))
	assert.Equal(t, protocol.CodeGameNotOver, er.Error.Code)
}
