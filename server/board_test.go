package server

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/stretchr/testify/require"

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
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/analysis/stream?"+query, nil)
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

// holdLiveSlots takes every slot of sched's live lane until the test ends: the board's
// analyses then wait for one (queued) and never end by themselves.
func holdLiveSlots(t *testing.T, sched *room.Scheduler) {
	_, _, slots := sched.Stats()
	for range slots {
		release, err := sched.Acquire(context.Background(), nil)
		require.NoError(t, err)
		t.Cleanup(release)
	}
}

// heldBoard is a board whose analyses never end by themselves (holdLiveSlots), with
// room for 16 at once, tokenCaller's clients and the limits given.
func heldBoard(t *testing.T, perCaller, perIP int) *analysisBoard {
	sched := room.NewScheduler(1, -1)
	holdLiveSlots(t, sched)
	a := newAnalysisBoard(sched)
	a.gate = room.NewScheduler(16, 8)
	a.caller = tokenCaller
	a.limits = newCallerLimits(perCaller, perIP, errBoardPerCaller, errBoardPerIP)
	return a
}

// tokenCaller is a Server.analysisCaller for tests: the bearer token is the player id.
func tokenCaller(c echo.Context) (who, ip string) {
	ip = c.RealIP()
	if tok, ok := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer "); ok {
		return "player:" + tok, ip
	}
	return "ip:" + ip, ip
}

func TestBoardPerClientLimit(t *testing.T) {
	a := heldBoard(t, protocol.AnalysisPerClient, 5)
	ts := analysisServer(t, a)
	for _, tc := range []struct {
		name, ip, token string
		want            string // "" or the refusal's message part
	}{
		{"anonymous 1", "192.0.2.1", "", ""},
		{"anonymous 2", "192.0.2.1", "", ""},
		{"anonymous over", "192.0.2.1", "", "as many analyses as you may"},
		{"another address", "192.0.2.2", "", ""},
		{"a player at the same address", "192.0.2.1", "ann", ""},
		{"the player again", "192.0.2.1", "ann", ""},
		{"the player over", "192.0.2.1", "ann", "as many analyses as you may"},
		{"the player from elsewhere, still over", "192.0.2.9", "ann", "as many analyses as you may"},
		{"another player at that address", "192.0.2.1", "bob", ""},
		{"the address's cap over the players", "192.0.2.1", "cid", "from your address"},
		{"cid elsewhere", "192.0.2.3", "cid", ""},
	} {
		status, ch, body, stop := openStreamAs(t, ts.URL, openPosition, tc.ip, tc.token)
		if tc.want != "" {
			requireRefused(t, status, body, 429, protocol.CodeAnalysisLimit)
			require.Contains(t, string(body), tc.want, tc.name)
			continue
		}
		require.Equal(t, 200, status, "%s: %s", tc.name, body)
		defer stop()
		require.Equal(t, "position", next(t, ch).name, tc.name)
	}
}

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

func TestBoardAddressQuota(t *testing.T) {
	a := heldBoard(t, 8, 8)
	a.quota = newTimeQuota(40*time.Second, time.Hour)
	a.ipQuota = newTimeQuota(50*time.Second, time.Hour)
	ts := analysisServer(t, a)
	// Ann takes 30 s of her 40 and of the address's 50; Bob, at the same address, gets
	// the 20 s the address has left, and Cid none: each has time, the address has not.
	status, ch, body, stop := openStreamAs(t, ts.URL, openPosition, "192.0.2.1", "ann")
	require.Equal(t, 200, status, string(body))
	defer stop()
	require.Equal(t, "position", next(t, ch).name)
	status, ch, body, stop2 := openStreamAs(t, ts.URL, openPosition, "192.0.2.1", "bob")
	require.Equal(t, 200, status, string(body))
	defer stop2()
	require.Equal(t, "position", next(t, ch).name)
	status, _, body, _ = openStreamAs(t, ts.URL, openPosition, "192.0.2.1", "cid")
	requireRefused(t, status, body, 429, protocol.CodeAnalysisLimit)
	require.Contains(t, string(body), "of your address")
	grant, refund := a.quota.take("player:bob", time.Hour, time.Now())
	refund(grant)
	require.Equal(t, 20*time.Second, grant, "bob was charged only what the address granted")
	// Elsewhere Cid has his own time.
	status, ch, body, stop3 := openStreamAs(t, ts.URL, openPosition, "192.0.2.7", "cid")
	require.Equal(t, 200, status, string(body))
	defer stop3()
	require.Equal(t, "position", next(t, ch).name)
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

// TestBoardLimitsThePlayer: on the server a client is the player of its bearer
// token wherever it connects from, and an address without a token.
func TestBoardLimitsThePlayer(t *testing.T) {
	e := newEnv(t, nil, func(c *Config, _ *room.Options) { c.TrustedProxies = clusterProxies })
	ann := e.player("Ann")
	for i := range protocol.AnalysisPerClient {
		status, ch, body, stop := openStreamAs(t, e.ts.URL, openPosition, "192.0.2."+strconv.Itoa(10+i), ann.Token)
		require.Equal(t, 200, status, string(body))
		defer stop()
		require.Equal(t, "position", next(t, ch).name)
	}
	status, _, body, _ := openStreamAs(t, e.ts.URL, openPosition, "192.0.2.99", ann.Token)
	requireRefused(t, status, body, 429, protocol.CodeAnalysisLimit)
	require.Contains(t, string(body), "as many analyses as you may")
	// Without her token the request is the address's, which has none running.
	status, ch, body, stop := openStreamAs(t, e.ts.URL, openPosition, "192.0.2.99", "")
	require.Equal(t, 200, status, string(body))
	defer stop()
	require.Equal(t, "position", next(t, ch).name)
}
