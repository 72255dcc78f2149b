package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

func TestBoardPosition(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct {
		query, toMove, winner string
		forbidden             []protocol.ForbiddenPoint
		line                  []string
	}{
		{"moves=h8i9", "black", "", []protocol.ForbiddenPoint{}, nil},
		// Black to move with a double three at i8 (g8 h8 · i8 and i8 · i9 i10).
		{"moves=g8a1h8a3i9a5i10a7&rule=renju", "black", "", []protocol.ForbiddenPoint{{Point: "i8", Kind: "double_three"}}, nil},
		{"moves=g8a1h8a3i9a5i10a7", "black", "", []protocol.ForbiddenPoint{}, nil},
		{"moves=g8a1h8a3i9a5i10&rule=renju", "white", "", []protocol.ForbiddenPoint{}, nil},
		{"moves=h8a1i8a2j8a3k8a4l8", "white", "black", []protocol.ForbiddenPoint{}, []string{"h8", "i8", "j8", "k8", "l8"}},
		{"moves=&size=20", "black", "", []protocol.ForbiddenPoint{}, nil},
	} {
		var out protocol.AnalysisPosition
		require.Equal(t, 200, e.do("GET", "/api/analysis/position?"+tt.query, "", nil, &out), tt.query)
		require.Equal(t, tt.toMove, out.ToMove, tt.query)
		require.Equal(t, tt.winner, out.Winner, tt.query)
		require.Equal(t, tt.forbidden, out.Forbidden, tt.query)
		require.Equal(t, tt.line, out.Line, tt.query)
	}
}

func TestBoardBadInput(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct {
		method, path, body, code string
		status                   int
	}{
		{"GET", "/api/analysis/position?moves=h8h8", "", protocol.CodeBadRequest, 400},
		{"GET", "/api/analysis/position?moves=z99", "", protocol.CodeBadRequest, 400},
		{"GET", "/api/analysis/position?moves=h8&rule=go", "", protocol.CodeBadRequest, 400},
		{"GET", "/api/analysis/position?moves=h8&size=14", "", protocol.CodeBadRequest, 400},
		{"GET", "/api/analysis/position?moves=h8&extra=1", "", protocol.CodeBadRequest, 400},
		// Renju: black may not play the double three.
		{"GET", "/api/analysis/position?moves=g8a1h8a3i9a5i10a7i8&rule=renju", "", protocol.CodeBadRequest, 400},
		{"GET", "/api/analysis/stream?moves=h8&time=31", "", protocol.CodeBadRequest, 400},
		{"GET", "/api/analysis/stream?moves=h8&lines=4", "", protocol.CodeBadRequest, 400},
		{"GET", "/api/analysis/stream?moves=h8a1i8a2j8a3k8a4l8", "", protocol.CodeGameOver, 409},
		{"POST", "/api/analysis/stream?moves=h8", "", protocol.CodeMethodNotAllowed, 405},
		{"POST", "/api/analysis/import", `{"text":`, protocol.CodeBadJSON, 400},
		{"POST", "/api/analysis/import", `{"text":"h8 zz"}`, protocol.CodeBadRequest, 400},
		{"POST", "/api/analysis/import", `{"text":"h8h8"}`, protocol.CodeBadRequest, 400},
		{"POST", "/api/analysis/import", `{"text":"(;SZ[15];B[hh]"}`, protocol.CodeBadRequest, 400},
		{"POST", "/api/analysis/import", `{"text":"` + strings.Repeat("h8", 40<<10) + `"}`, protocol.CodeTooLarge, 413},
	} {
		var er apiErr
		require.Equal(t, tt.status, e.do(tt.method, tt.path, "", tt.body, &er), tt.path+" "+tt.body)
		require.Equal(t, tt.code, er.Error.Code, tt.path+" "+tt.body)
	}
}

func TestBoardImport(t *testing.T) {
	e := newEnv(t, nil)
	for _, tt := range []struct {
		in   protocol.AnalysisImport
		want protocol.AnalysisImported
	}{
		{protocol.AnalysisImport{Text: "h8 i9 j7"}, protocol.AnalysisImported{Format: "moves", Size: 15, Moves: "h8i9j7"}},
		{protocol.AnalysisImport{Text: "t20 a1", Size: 20}, protocol.AnalysisImported{Format: "moves", Size: 20, Moves: "t20a1"}},
		{protocol.AnalysisImport{Text: "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,7,0\r\n-1\r\n"}, protocol.AnalysisImported{Format: "psq", Size: 15, Moves: "h8i9"}},
		{protocol.AnalysisImport{Text: "(;GM[4]SZ[16]RU[renju];B[hh];W[ii])"}, protocol.AnalysisImported{Format: "sgf", Size: 16, Rule: "renju", Moves: "h9i8"}},
	} {
		var out protocol.AnalysisImported
		require.Equal(t, 200, e.do("POST", "/api/analysis/import", "", tt.in, &out), tt.in.Text)
		require.Equal(t, tt.want, out)
	}
}

// TestBoardImportsServerRecords: both record formats the server writes read back
// into the same moves.
func TestBoardImportsServerRecords(t *testing.T) {
	e := newEnv(t, nil)
	alice, bob := room.Player{ID: "a", Name: "Alice [A]"}, room.Player{ID: "b", Name: "Bob"}
	set := room.DefaultSettings()
	set.Rule = "renju"
	now := time.Unix(1_700_000_000, 0)
	s, _, err := room.NewState("r1", set, now)
	require.NoError(t, err)
	moves := []string{"h8", "i9", "j8", "a1", "o15", "g7"}
	cmds := []room.Command{{Kind: room.CmdSit, By: alice, Color: "black"}, {Kind: room.CmdSit, By: bob, Color: "white"}}
	for i, m := range moves {
		by := alice
		if i%2 == 1 {
			by = bob
		}
		cmds = append(cmds, room.Command{Kind: room.CmdMove, By: by, Ply: i, Point: m})
	}
	for _, c := range cmds {
		s, _, err = room.Apply(s, c, now)
		require.NoError(t, err, "%s", c.Kind)
	}
	for _, format := range []string{"psq", "sgf"} {
		rec, err := formatRecord(newGameRecord(s, 1, room.GameSpan{}), format)
		require.NoError(t, err)
		var out protocol.AnalysisImported
		require.Equal(t, 200, e.do("POST", "/api/analysis/import", "", protocol.AnalysisImport{Text: string(rec)}, &out), format)
		require.Equal(t, strings.Join(moves, ""), out.Moves, format)
		require.Equal(t, format, out.Format)
		if format == "sgf" {
			require.Equal(t, "renju", out.Rule)
		}
	}
}

// sseEvent is one server-sent event.
type sseEvent struct {
	name string
	data string
}

// openStream starts GET /api/analysis/stream?query as client ip and returns its
// status, its events as they come and a stop function.
func openStream(t *testing.T, base, query, ip string) (int, <-chan sseEvent, []byte, func()) {
	t.Helper()
	return openStreamAs(t, base, query, ip, "")
}

// openStreamAs is openStream with a bearer token (none when empty).
func openStreamAs(t *testing.T, base, query, ip, token string) (int, <-chan sseEvent, []byte, func()) {
	t.Helper()
	return openSSE(t, base+"/api/analysis/stream?"+query, ip, token)
}

// openSSE is openStreamAs for any stream at url.
func openSSE(t *testing.T, url, ip, token string) (int, <-chan sseEvent, []byte, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	require.NoError(t, err)
	if ip != "" {
		req.Header.Set("X-Real-IP", ip)
		req.Header.Set("X-Forwarded-For", ip)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	if res.StatusCode != 200 {
		var body [4096]byte
		n, _ := res.Body.Read(body[:])
		res.Body.Close()
		cancel()
		return res.StatusCode, nil, body[:n], func() {}
	}
	require.Equal(t, "text/event-stream; charset=utf-8", res.Header.Get("Content-Type"))
	ch := make(chan sseEvent, 1024)
	go func() {
		defer close(ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				ev.data = line[len("data: "):]
			case line == "":
				ch <- ev
				ev = sseEvent{}
			}
		}
	}()
	return 200, ch, nil, cancel
}

// next returns the next event, failing the test when the stream ends first.
func next(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		require.True(t, ok, "the stream ended")
		return ev
	case <-time.After(2 * time.Minute):
		t.Fatal("no event")
	}
	return sseEvent{}
}

func TestBoardStream(t *testing.T) {
	e := newEnv(t, nil)
	// Black to move with an open three: the four wins, whatever else is shown.
	status, ch, body, stop := openStream(t, e.ts.URL, "moves=h8a1i8a2j8a15&time=2&lines=3", "")
	defer stop()
	require.Equal(t, 200, status, string(body))
	ev := next(t, ch)
	require.Equal(t, "position", ev.name)
	var pos protocol.AnalysisPosition
	require.NoError(t, json.Unmarshal([]byte(ev.data), &pos))
	require.Equal(t, "black", pos.ToMove)
	require.Equal(t, 6, pos.Ply)
	var infos int
	for {
		ev = next(t, ch)
		if ev.name != "info" {
			break
		}
		infos++
	}
	require.Equal(t, "done", ev.name, ev.data)
	require.Positive(t, infos, "progress comes before the end")
	var done protocol.AnalysisInfo
	require.NoError(t, json.Unmarshal([]byte(ev.data), &done))
	require.Contains(t, []string{"done", "time"}, done.Stopped)
	require.NotEmpty(t, done.Lines)
	require.LessOrEqual(t, len(done.Lines), 3)
	require.Contains(t, []string{"g8", "k8"}, done.Lines[0].Move)
	require.Positive(t, done.Lines[0].Mate, "the open four is a proven win")
	require.Equal(t, done.Lines[0].Move, done.Lines[0].PV[0])
	require.Positive(t, done.Nodes)
	require.Equal(t, int64(2000), done.LimitMS)
	_, open := <-ch
	require.False(t, open, "the stream ends after done")
}

// analysisServer serves the board's stream with a, turning errors into JSON as the
// server does.
func analysisServer(t *testing.T, a *analysisBoard) *httptest.Server {
	e := echo.New()
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		ce := protocol.ClientError(err)
		_ = c.JSON(protocol.HTTPStatus(ce.Code), map[string]any{"error": map[string]string{"code": ce.Code, "message": ce.Message}})
	}
	e.GET("/api/analysis/stream", a.stream)
	ts := httptest.NewServer(e)
	t.Cleanup(ts.Close)
	return ts
}

func requireRefused(t *testing.T, status int, body []byte, wantStatus int, code string) {
	t.Helper()
	require.Equal(t, wantStatus, status, string(body))
	var er apiErr
	require.NoError(t, json.Unmarshal(body, &er))
	require.Equal(t, code, er.Error.Code)
}

const openPosition = "moves=h8i9j7&time=30"

func TestBoardQuota(t *testing.T) {
	a := newAnalysisBoard(nil)
	a.gate = room.NewScheduler(8, 8)
	a.limits = newCallerLimits(8, 8, errBoardPerCaller, errBoardPerIP)
	a.quota = newTimeQuota(40*time.Second, time.Hour)
	ts := analysisServer(t, a)
	status, ch, body, stop := openStream(t, ts.URL, openPosition, "192.0.2.1")
	require.Equal(t, 200, status, string(body))
	defer stop()
	require.Equal(t, "position", next(t, ch).name)
	// 30 s are taken up front: 10 s are left, so the next analysis gets those.
	q := "moves=h8i9j7&time=10"
	status, ch2, body, stop2 := openStream(t, ts.URL, q, "192.0.2.1")
	require.Equal(t, 200, status, string(body))
	defer stop2()
	require.Equal(t, "position", next(t, ch2).name)
	// Nothing is left until they give back what they did not use.
	status, _, body, _ = openStream(t, ts.URL, q, "192.0.2.1")
	requireRefused(t, status, body, 429, protocol.CodeAnalysisLimit)
	require.Contains(t, string(body), "engine time")
	stop()
	stop2()
	require.Eventually(t, func() bool {
		grant, refund := a.quota.take("ip:192.0.2.1", time.Second, time.Now())
		refund(grant)
		return grant == time.Second
	}, time.Minute, 10*time.Millisecond, "a stopped analysis gives its unused time back")
}

func TestTimeQuotaWindow(t *testing.T) {
	q := newTimeQuota(10*time.Second, time.Hour)
	t0 := time.Unix(1_700_000_000, 0)
	g, refund := q.take("a", 8*time.Second, t0)
	require.Equal(t, 8*time.Second, g)
	g, _ = q.take("a", 8*time.Second, t0.Add(time.Minute))
	require.Equal(t, 2*time.Second, g, "what is left of the window")
	refund(3 * time.Second)
	g, _ = q.take("a", 8*time.Second, t0.Add(2*time.Minute))
	require.Equal(t, 3*time.Second, g, "the refund is available again")
	g, _ = q.take("a", 8*time.Second, t0.Add(time.Hour))
	require.Equal(t, 8*time.Second, g, "a new window starts afresh")
	g, _ = q.take("b", 20*time.Second, t0)
	require.Equal(t, 10*time.Second, g, "each client has its own quota")
}

func TestBoardBusy(t *testing.T) {
	a := newAnalysisBoard(nil)
	a.gate = room.NewScheduler(1, 1)
	ts := analysisServer(t, a)
	status, ch1, body, stop1 := openStream(t, ts.URL, openPosition, "192.0.2.1")
	require.Equal(t, 200, status, string(body))
	defer stop1()
	require.Equal(t, "position", next(t, ch1).name)
	require.Equal(t, "info", next(t, ch1).name, "the first analysis runs")

	// The second waits in the queue and says so.
	status, ch2, body, stop2 := openStream(t, ts.URL, openPosition, "192.0.2.2")
	require.Equal(t, 200, status, string(body))
	defer stop2()
	require.Equal(t, "position", next(t, ch2).name)
	ev := next(t, ch2)
	require.Equal(t, "queued", ev.name)
	require.JSONEq(t, `{"running":1,"waiting":1}`, ev.data)

	// The queue is full: a third is refused at once.
	status, _, body, _ = openStream(t, ts.URL, openPosition, "192.0.2.3")
	requireRefused(t, status, body, 503, protocol.CodeAnalysisBusy)

	// When the first stops, the queued one starts.
	stop1()
	require.Equal(t, "info", next(t, ch2).name)
}

func TestBoardQueueWait(t *testing.T) {
	a := newAnalysisBoard(nil)
	a.gate = room.NewScheduler(1, 4)
	a.wait = time.Millisecond
	ts := analysisServer(t, a)
	status, ch1, body, stop1 := openStream(t, ts.URL, openPosition, "192.0.2.1")
	require.Equal(t, 200, status, string(body))
	defer stop1()
	require.Equal(t, "position", next(t, ch1).name)
	require.Equal(t, "info", next(t, ch1).name)
	status, ch2, body, stop2 := openStream(t, ts.URL, openPosition, "192.0.2.2")
	require.Equal(t, 200, status, string(body))
	defer stop2()
	require.Equal(t, "position", next(t, ch2).name)
	ev := next(t, ch2)
	if ev.name == "queued" {
		ev = next(t, ch2)
	}
	require.Equal(t, "error", ev.name)
	require.JSONEq(t, `{"error":{"code":"analysis_busy","message":"every analysis engine is busy: try again in a minute"}}`, ev.data)
}

// TestBoardYieldsToLiveSearch: an analysis runs on the scheduler's background lane;
// a live AI search takes its slot at once, and the analysis goes on after it.
func TestBoardYieldsToLiveSearch(t *testing.T) {
	sched := room.NewScheduler(1, -1)
	a := newAnalysisBoard(sched)
	ts := analysisServer(t, a)
	status, ch, body, stop := openStream(t, ts.URL, openPosition, "192.0.2.1")
	require.Equal(t, 200, status, string(body))
	defer stop()
	require.Equal(t, "position", next(t, ch).name)
	require.Equal(t, "info", next(t, ch).name)

	release, err := sched.Acquire(context.Background(), func() { t.Error("the live search waited") })
	require.NoError(t, err)
	ev := next(t, ch)
	for ev.name == "info" { // reports sent before the preemption
		ev = next(t, ch)
	}
	require.Equal(t, "queued", ev.name, "the preempted analysis waits for a slot")
	release()
	require.Equal(t, "info", next(t, ch).name, "and goes on when the live search is done")
}

// TestBoardTakesAGameOfARoom: a room's game n as a record (GET …/record?game=n) reads
// into the analysis board.
func TestBoardTakesAGameOfARoom(t *testing.T) {
	e := newEnv(t, nil)
	id := finishedGame(t, e)
	rec := e.raw("GET", "/api/rooms/"+id+"/record?format=sgf&game=1", nil)
	require.Equal(t, http.StatusOK, rec.status, string(rec.body))
	var out protocol.AnalysisImported
	require.Equal(t, 200, e.do("POST", "/api/analysis/import", "", protocol.AnalysisImport{Text: string(rec.body)}, &out))
	require.Equal(t, 9, len(out.Moves)/2, "the finished game's nine moves: %s", out.Moves)
	require.Equal(t, "h8", out.Moves[:2])
	for q, code := range map[string]string{"game=2": protocol.CodeNoSuchGame, "game=0": protocol.CodeBadRequest, "game=x": protocol.CodeBadRequest} {
		var er apiErr
		e.do("GET", "/api/rooms/"+id+"/record?"+q, "", nil, &er)
		require.Equal(t, code, er.Error.Code, q)
	}
}

// FuzzBoardPositionQuery: any query the board's position endpoint reads either is
// refused with bad_request or plays out to a position that describes itself: its moves
// read back to the same board, renju forbidden points only for black to move in renju,
// each on an empty point.
func FuzzBoardPositionQuery(f *testing.F) {
	f.Add("moves=g8a1h8a3i9a5i10a7&rule=renju")
	f.Add("moves=h8i9j7&size=20")
	f.Add("moves=h8h8")
	f.Add("moves=h8a1i8a2j8a3k8a4l8")
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		req, err := protocol.DecodeAnalysisQuery(q)
		if err != nil {
			return // FuzzDecodeAnalysisQuery checks the refusals
		}
		b, err := playOut(req.Moves, req.Rule, req.Size)
		if err != nil {
			require.Equal(t, protocol.CodeBadRequest, protocol.Code(err), "%v", err)
			return
		}
		pos := positionOf(req, b)
		again, err := playOut(pos.Moves, pos.Rule, pos.Size)
		require.NoError(t, err, pos.Moves)
		require.Equal(t, b.Moves(), again.Moves())
		require.Equal(t, b.Ply(), pos.Ply)
		if req.Rule != "renju" || pos.ToMove != "black" || pos.Winner != "" {
			require.Empty(t, pos.Forbidden)
		}
		for _, fp := range pos.Forbidden {
			p, err := engine.ParsePoint(fp.Point, req.Size)
			require.NoError(t, err)
			require.Equal(t, engine.Empty, b.At(p), fp.Point)
		}
	})
}
