package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// learnRun calls a classroom handler directly, with a time cap no test machine reaches
// (the caps themselves are tested in TestLearnCaps), and decodes its answer.
func learnRun(t *testing.T, h func(*learn, echo.Context) error, body string, out any) {
	t.Helper()
	l := newLearn(nil)
	l.timeCap = 10 * time.Minute
	c := learnCtx(t, body)
	require.NoError(t, h(l, c))
	rec := c.Response().Writer.(*httptest.ResponseRecorder)
	require.Equal(t, http.StatusOK, rec.Code)
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), out))
}

func TestLearnCompare(t *testing.T) {
	for _, pos := range []string{"h8i9j7", "h8 g7 i9 j10 g9 i7", "h8a1i8a2j8a3k8a15"} {
		var out protocol.LearnCompare
		learnRun(t, (*learn).compare, `{"moves":"`+pos+`","depth":3}`, &out)
		require.Len(t, out.Modes, 4)
		require.Equal(t, []string{"minimax", "alpha-beta", "alpha-beta+ordering", "alpha-beta+ordering+TT"},
			[]string{out.Modes[0].Mode, out.Modes[1].Mode, out.Modes[2].Mode, out.Modes[3].Mode})
		for _, m := range out.Modes {
			require.True(t, m.Complete, "%s %s", pos, m.Mode)
			require.NotNil(t, m.Value)
			require.Equal(t, *out.Modes[0].Value, *m.Value, "%s: %s agrees with minimax", pos, m.Mode)
			require.LessOrEqual(t, m.Nodes, out.Modes[0].Nodes, "%s: minimax visits the most nodes", pos)
		}
		require.Less(t, out.Modes[2].Nodes, out.Modes[1].Nodes, "%s: ordering prunes more", pos)
	}
	// Known answer: black to move completes the open four.
	var out protocol.LearnCompare
	learnRun(t, (*learn).compare, `{"moves":"h8a1i8a2j8a3k8a15","depth":2}`, &out)
	require.Equal(t, "black", out.ToMove)
	require.Contains(t, []string{"g8", "l8"}, out.Modes[0].Move)
	require.Equal(t, out.Win-1, *out.Modes[0].Value)
}

func TestLearnBadInput(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct {
		path, body, code string
		status           int
	}{
		{"/api/learn/compare", `{"moves":"h8","depth":5}`, protocol.CodeBadRequest, 400},
		{"/api/learn/compare", `{"moves":"h8","depth":1}`, protocol.CodeBadRequest, 400},
		{"/api/learn/compare", `{"moves":"h8h8","depth":2}`, protocol.CodeBadRequest, 400},
		{"/api/learn/compare", `{"moves":"z99","depth":2}`, protocol.CodeBadRequest, 400},
		{"/api/learn/compare", `{"moves":"","depth":2}`, protocol.CodeBadRequest, 400},
		{"/api/learn/compare", `{"moves":"h8","depth":2,"rule":"go"}`, protocol.CodeBadRequest, 400},
		{"/api/learn/compare", `{"moves":`, protocol.CodeBadJSON, 400},
		{"/api/learn/compare", `{"moves":"h8a1i8a2j8a3k8a4l8","depth":2}`, protocol.CodeGameOver, 409},
		{"/api/learn/compare", `{"moves":"` + strings.Repeat("h8", 3000) + `"}`, protocol.CodeTooLarge, 413},
		{"/api/learn/tree", `{"moves":"h8","depth":4}`, protocol.CodeBadRequest, 400},
		{"/api/learn/tree", `{"moves":"h8","depth":2,"width":7}`, protocol.CodeBadRequest, 400},
	} {
		var er apiErr
		require.Equal(t, tt.status, e.do("POST", tt.path, "", tt.body, &er), tt.body)
		require.Equal(t, tt.code, er.Error.Code, tt.body)
	}
}

func TestLearnTree(t *testing.T) {
	var tree protocol.LearnTree
	learnRun(t, (*learn).tree, `{"moves":"h8i9j7","depth":3,"width":4}`, &tree)
	require.True(t, tree.Root.Max)
	require.Len(t, tree.Root.Children, 4)
	cuts, count := 0, 0
	var walk func(n *protocol.LearnNode)
	walk = func(n *protocol.LearnNode) {
		count++
		if n.Cut {
			cuts++
			require.NotEmpty(t, n.Pruned)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(tree.Root)
	require.Equal(t, tree.Nodes, count)
	require.Positive(t, cuts)
	require.Equal(t, tree.Root.Value, tree.Root.Children[tree.Root.Best].Value)
}

// TestLearnRoutes checks the wiring: both endpoints answer and the page is served.
func TestLearnRoutes(t *testing.T) {
	e := newEnv(t, nil)
	var cmp protocol.LearnCompare
	require.Equal(t, http.StatusOK, e.do("POST", "/api/learn/compare", "", map[string]any{"moves": "h8i9j7", "depth": 2}, &cmp))
	require.Len(t, cmp.Modes, 4)
	var tree protocol.LearnTree
	require.Equal(t, http.StatusOK, e.do("POST", "/api/learn/tree", "", map[string]any{"moves": "h8i9j7", "depth": 2, "width": 2}, &tree))
	require.NotNil(t, tree.Root)
	req, err := http.NewRequest("GET", e.ts.URL+"/learn", nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
}

func TestLearnEval(t *testing.T) {
	var ex protocol.LearnEval
	learnRun(t, (*learn).eval, `{"moves":"h8a1i8a2j8"}`, &ex)
	require.Equal(t, "white", ex.ToMove)
	require.Equal(t, int64(2000), ex.Black)
	require.Equal(t, int64(50), ex.White)
	require.Equal(t, int64(10*50-12*2000), ex.Value)
	require.Equal(t, 2000, ex.Weights["open_three"])
	require.Len(t, ex.Patterns, 2)
	for _, p := range ex.Patterns {
		if p.Color == "black" {
			require.Equal(t, protocol.LearnPattern{Color: "black", Stones: []string{"h8", "i8", "j8"}, Open: 2, Kind: "open_three", Score: 2000}, p)
		}
	}
	// A finished game and the empty board are explained too; a depth is refused.
	learnRun(t, (*learn).eval, `{"moves":"h8a1i8a2j8a3k8a4l8"}`, &ex)
	require.Equal(t, "five", ex.Patterns[len(ex.Patterns)-1].Kind)
	learnRun(t, (*learn).eval, `{"moves":""}`, &ex)
	require.Empty(t, ex.Patterns)
	err := newLearn(nil).eval(learnCtx(t, `{"moves":"h8","depth":2}`))
	require.Equal(t, protocol.CodeBadRequest, protocol.Code(err))
}

func learnCtx(t *testing.T, body string) echo.Context {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/learn/compare", strings.NewReader(body))
	req.RemoteAddr = "192.0.2.1:1234"
	return echo.New().NewContext(req, httptest.NewRecorder())
}

func TestLearnCaps(t *testing.T) {
	l := newLearn(nil)
	l.nodeCap = 5000
	c := learnCtx(t, `{"moves":"h8i9j7","depth":4}`)
	require.NoError(t, l.compare(c))
	rec := c.Response().Writer.(*httptest.ResponseRecorder)
	require.Contains(t, rec.Body.String(), `"stopped":"nodes"`)
	require.Contains(t, rec.Body.String(), `"mode":"minimax","nodes":500`)

	// One request at a time per client.
	release, err := l.acquire(learnCtx(t, ""))
	require.NoError(t, err)
	err = l.compare(learnCtx(t, `{"moves":"h8i9j7","depth":2}`))
	require.Equal(t, protocol.CodeRateLimited, protocol.Code(err))
	release()

	// Every node slot busy: learn_busy after the wait.
	l.wait = time.Millisecond
	for i := 0; i < cap(l.slots); i++ {
		l.slots <- struct{}{}
	}
	err = l.compare(learnCtx(t, `{"moves":"h8i9j7","depth":2}`))
	require.Equal(t, protocol.CodeLearnBusy, protocol.Code(err))
	require.Equal(t, http.StatusServiceUnavailable, protocol.HTTPStatus(protocol.CodeLearnBusy))
}

func TestLearnRunsOnTheBackgroundLane(t *testing.T) {
	sched := room.NewScheduler(1, 0)
	l := newLearn(sched)
	l.timeCap = 10 * time.Minute
	live, err := sched.Acquire(context.Background(), nil) // a live AI search holds the only slot
	require.NoError(t, err)
	c := learnCtx(t, `{"moves":"h8i9j7","depth":2}`)
	done := make(chan error, 1)
	go func() { done <- l.compare(c) }()
	require.Eventually(t, func() bool { _, w := sched.BackgroundStats(); return w == 1 },
		10*time.Second, 2*time.Millisecond, "the classroom search waits behind the live one")
	live()
	require.NoError(t, <-done)
	require.Equal(t, http.StatusOK, c.Response().Writer.(*httptest.ResponseRecorder).Code)
	run, wait := sched.BackgroundStats()
	require.Equal(t, [2]int{0, 0}, [2]int{run, wait})
}
