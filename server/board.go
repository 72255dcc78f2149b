package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/record"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// The analysis board (docs/protocol.md, "Analysis board"): GET /api/analysis/position
// plays a position out (its turn, end and renju forbidden points), POST
// /api/analysis/import reads a pasted record, and GET /api/analysis/stream analyses a
// position live, as server-sent events.
//
// The stream is one-way and one position long: stepping to another position is a new
// request, and the browser's abort of the old one cancels its search at once. Server-
// sent events over plain HTTP keep errors before the stream ordinary JSON errors with
// their status, pass any proxy, and need no session state on the server.

const (
	analysisWait  = 10 * time.Second // longest wait in the queue before analysis_busy
	analysisQueue = 8                // analyses waiting for a slot before analysis_busy at once
	// analysisMinGrant is the least engine time an analysis starts with: below it the
	// client's quota counts as spent.
	analysisMinGrant = time.Second
)

// analysisGate bounds the analyses of a node: a few run, a few more wait in FIFO order
// (they report "queued"), the rest are refused. room.Scheduler's live lane is one.
type analysisGate interface {
	Admit() error
	Acquire(ctx context.Context, queued func()) (release func(), err error)
	Stats() (running, waiting, slots int)
}

// analysisBoard holds the board's limits: analyses at once per client (the player of
// the bearer token, else the address) and per address, engine time per client and per
// address in each window, and analyses per node (gate). Its searches run on the
// background lane of the node's AI scheduler (sched), so live AI seats never wait for
// them: a live search preempts one, which goes on when a slot frees.
type analysisBoard struct {
	sched   *room.Scheduler
	gate    analysisGate
	limits  *callerLimits
	quota   *timeQuota // per client
	ipQuota *timeQuota // per address
	caller  func(echo.Context) (who, ip string)
	engines chan *engine.Engine // idle engines (at most one per gate slot is ever busy)
	wait    time.Duration       // tests shorten it
	now     func() time.Time
}

func newAnalysisBoard(sched *room.Scheduler) *analysisBoard {
	if sched == nil {
		sched = room.NewScheduler(0, -1)
	}
	slots := max(1, runtime.NumCPU()/2)
	return &analysisBoard{
		sched:   sched,
		gate:    room.NewScheduler(slots, analysisQueue),
		limits:  newCallerLimits(protocol.AnalysisPerClient, protocol.AnalysisPerAddress, errBoardPerCaller, errBoardPerIP),
		quota:   newTimeQuota(protocol.AnalysisQuota, protocol.AnalysisQuotaWindow),
		ipQuota: newTimeQuota(protocol.AnalysisAddressQuota, protocol.AnalysisQuotaWindow),
		caller:  ipCaller,
		engines: make(chan *engine.Engine, slots),
		wait:    analysisWait,
		now:     time.Now,
	}
}

var (
	errAnalysisBusy    = protocol.NewError("server", protocol.CodeAnalysisBusy, "every analysis engine is busy: try again in a minute")
	errAnalysisQuota   = protocol.NewError("server", protocol.CodeAnalysisLimit, "your engine time for this hour is spent: try again later")
	errAnalysisIPQuota = protocol.NewError("server", protocol.CodeAnalysisLimit, "the engine time of your address for this hour is spent: try again later")
	errAnalysisGameEnd = protocol.NewError("server", protocol.CodeGameOver, "the position is a finished game")
)

// readBoardQuery plays the query's position out.
func readBoardQuery(c echo.Context) (protocol.AnalysisRequest, *engine.Board, error) {
	req, err := protocol.DecodeAnalysisQuery(c.QueryParams())
	if err != nil {
		return req, nil, err
	}
	b, err := playOut(req.Moves, req.Rule, req.Size)
	return req, b, err
}

// positionOf describes b for the board.
func positionOf(req protocol.AnalysisRequest, b *engine.Board) protocol.AnalysisPosition {
	out := protocol.AnalysisPosition{Moves: engine.FormatMoves(b.Moves()), Rule: req.Rule, Size: req.Size,
		Ply: b.Ply(), ToMove: colorName(b.ToMove()), Forbidden: []protocol.ForbiddenPoint{}}
	if o := b.Outcome(); o.Over {
		out.Winner = "draw"
		if o.Winner != engine.Empty {
			out.Winner = colorName(o.Winner)
		}
		for _, p := range o.Line {
			out.Line = append(out.Line, p.String())
		}
		return out
	}
	if b.ToMove() == engine.Black {
		if f := room.ForbiddenOf(b.Clone()); f != nil {
			out.Forbidden = f
		}
	}
	return out
}

// position serves GET /api/analysis/position (one pass over the board: no slot).
func (a *analysisBoard) position(c echo.Context) error {
	req, b, err := readBoardQuery(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, positionOf(req, b))
}

// importRecord serves POST /api/analysis/import.
func (a *analysisBoard) importRecord(c echo.Context) error {
	body, err := readBody(c, protocol.AnalysisMaxImport+1024)
	if err != nil {
		return err
	}
	var in protocol.AnalysisImport
	if err := json.Unmarshal(body, &in); err != nil {
		return protocol.Errorf(protocol.CodeBadJSON, "invalid JSON body: %v", err)
	}
	g, format, err := record.Parse([]byte(in.Text), in.Size)
	if err != nil {
		return protocol.Errorf(protocol.CodeBadRequest, "%v", err)
	}
	rule := engine.Freestyle
	if g.HasRule {
		rule = g.Rule
	}
	if _, err := engine.BoardFromMoves(g.Size, rule, g.Moves); err != nil {
		return protocol.Errorf(protocol.CodeBadRequest, "the record's moves: %v", err)
	}
	out := protocol.AnalysisImported{Format: string(format), Size: g.Size, Moves: engine.FormatMoves(g.Moves)}
	if g.HasRule {
		out.Rule = g.Rule.String()
	}
	return c.JSON(http.StatusOK, out)
}

// stream serves GET /api/analysis/stream: the events "position", "queued" (when it
// waits for a slot), "info" (progress) and "done", or "error" once the stream began.
func (a *analysisBoard) stream(c echo.Context) error {
	req, b, err := readBoardQuery(c)
	if err != nil {
		return err
	}
	if b.Outcome().Over {
		return errAnalysisGameEnd
	}
	who, ip := a.caller(c)
	release, err := a.limits.acquire(who, ip)
	if err != nil {
		return err
	}
	defer release()
	want := time.Duration(req.Seconds) * time.Second
	grant, refund, err := a.take(who, ip, want)
	if err != nil {
		return err
	}
	if err := a.gate.Admit(); err != nil {
		refund(grant)
		return errAnalysisBusy
	}
	ctx := c.Request().Context()
	w := newEventWriter(c)
	w.send("position", positionOf(req, b))
	wctx, cancel := context.WithTimeout(ctx, a.wait)
	releaseSlot, err := a.gate.Acquire(wctx, func() {
		running, waiting, _ := a.gate.Stats()
		w.send("queued", protocol.AnalysisQueued{Running: running, Waiting: waiting})
	})
	cancel()
	if err != nil {
		refund(grant)
		if ctx.Err() == nil {
			w.fail(errAnalysisBusy)
		}
		return nil
	}
	defer releaseSlot()
	final, used, exhausted := a.run(ctx, w, b, req.Lines, grant)
	refund(max(grant-used, 0))
	if ctx.Err() != nil {
		return nil // the client left
	}
	switch {
	case exhausted:
		final.Stopped = "done"
	case grant < want:
		final.Stopped = "quota"
	default:
		final.Stopped = "time"
	}
	w.send("done", final)
	return nil
}

// take grants up to want of engine time from the client's quota and from its
// address's; refund gives back an unused part to both. Less than analysisMinGrant (or
// want, when smaller) left in either: analysis_limit.
func (a *analysisBoard) take(who, ip string, want time.Duration) (grant time.Duration, refund func(time.Duration), err error) {
	now := a.now()
	least := min(want, analysisMinGrant)
	grant, refundCaller := a.quota.take(who, want, now)
	if grant < least {
		refundCaller(grant)
		return 0, nil, errAnalysisQuota
	}
	ipGrant, refundIP := a.ipQuota.take(ip, grant, now)
	if ipGrant < least {
		refundCaller(grant)
		refundIP(ipGrant)
		return 0, nil, errAnalysisIPQuota
	}
	refundCaller(grant - ipGrant)
	return ipGrant, func(d time.Duration) {
		refundCaller(d)
		refundIP(d)
	}, nil
}

// run searches b for up to limit of engine time on the scheduler's background lane,
// sending the latest progress as it comes (a slow client gets the newest report, never
// a backlog). A preempted search goes on when a slot frees, its transposition table
// intact; time spent waiting does not count.
func (a *analysisBoard) run(ctx context.Context, w *eventWriter, b *engine.Board, lines int, limit time.Duration) (final protocol.AnalysisInfo, spent time.Duration, exhausted bool) {
	var e *engine.Engine
	select {
	case e = <-a.engines:
		e.Clear()
	default:
		e = engine.New(engine.Options{})
	}
	defer func() {
		select {
		case a.engines <- e:
		default:
		}
	}()
	var (
		mu     sync.Mutex
		latest *protocol.AnalysisInfo
		ready  = make(chan struct{}, 1)
		last   protocol.AnalysisInfo
	)
	progress := func(l engine.Lines) {
		info := wireLines(l, limit)
		mu.Lock()
		latest = &info
		mu.Unlock()
		select {
		case ready <- struct{}{}:
		default:
		}
	}
	for spent < limit {
		if a.slotsBusy() {
			running, waiting, _ := a.gate.Stats()
			w.send("queued", protocol.AnalysisQueued{Running: running, Waiting: waiting})
		}
		bctx, release, err := a.sched.AcquireBackground(ctx)
		if err != nil {
			break // the client left
		}
		left := limit - spent
		sctx, cancel := context.WithTimeout(bctx, left)
		done := make(chan engine.Lines, 1)
		start := a.now()
		go func() { done <- e.SearchLines(sctx, b, lines, engine.Limits{Time: left}, progress) }()
		var res engine.Lines
	wait:
		for {
			select {
			case <-ready:
				mu.Lock()
				info := latest
				mu.Unlock()
				w.send("info", *info)
			case res = <-done:
				break wait
			}
		}
		spent += a.now().Sub(start)
		preempted := errors.Is(context.Cause(bctx), room.ErrPreempted)
		cancel()
		release()
		if len(res.Lines) > 0 || len(last.Lines) == 0 {
			last = wireLines(res, limit)
		}
		if !preempted {
			exhausted = res.Exhausted
			break
		}
	}
	last.ElapsedMS = spent.Milliseconds()
	return last, spent, exhausted
}

// slotsBusy reports whether every slot of the scheduler is taken (an analysis will
// wait for one).
func (a *analysisBoard) slotsBusy() bool {
	live, liveWaiting, slots := a.sched.Stats()
	bg, _ := a.sched.BackgroundStats()
	return live+bg >= slots || liveWaiting > 0
}

// wireLines turns an engine report into the wire form.
func wireLines(l engine.Lines, limit time.Duration) protocol.AnalysisInfo {
	out := protocol.AnalysisInfo{Nodes: l.Nodes, NPS: l.NPS, ElapsedMS: l.Elapsed.Milliseconds(),
		LimitMS: limit.Milliseconds(), Lines: make([]protocol.AnalysisLine, 0, len(l.Lines))}
	for i, ln := range l.Lines {
		if i == 0 {
			out.Depth = ln.Depth
		}
		wl := protocol.AnalysisLine{Move: ln.Move.String(), Score: int(ln.Score), Depth: ln.Depth, PV: make([]string, 0, len(ln.PV))}
		if ln.Score.IsMate() {
			wl.Mate = ln.Score.MatePlies()
		}
		for _, p := range ln.PV {
			wl.PV = append(wl.PV, p.String())
		}
		out.Lines = append(out.Lines, wl)
	}
	return out
}

// eventWriter writes server-sent events; after a failed write it drops the rest (the
// request's context ends the analysis).
type eventWriter struct {
	c      echo.Context
	rc     *http.ResponseController
	failed bool
}

const eventWriteWait = 10 * time.Second

func newEventWriter(c echo.Context) *eventWriter {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream; charset=utf-8")
	h.Set(echo.HeaderCacheControl, "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	c.Response().WriteHeader(http.StatusOK)
	return &eventWriter{c: c, rc: http.NewResponseController(c.Response())}
}

func (w *eventWriter) send(event string, v any) {
	if w.failed {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		w.failed = true
		return
	}
	buf := make([]byte, 0, len(event)+len(data)+16)
	buf = append(append(append(append(buf, "event: "...), event...), "\ndata: "...), data...)
	w.write(append(buf, "\n\n"...))
}

// comment writes a comment line, which clients ignore: a heartbeat that keeps proxies
// from closing a quiet stream.
func (w *eventWriter) comment() {
	w.write([]byte(": keep-alive\n\n"))
}

// write writes buf and flushes it.
func (w *eventWriter) write(buf []byte) {
	if w.failed {
		return
	}
	_ = w.rc.SetWriteDeadline(time.Now().Add(eventWriteWait))
	if _, err := w.c.Response().Write(buf); err != nil {
		w.failed = true
		return
	}
	if err := w.rc.Flush(); err != nil {
		w.failed = true
	}
}

// fail sends an error event with the error's code (the stream's status is already 200).
func (w *eventWriter) fail(err error) {
	e := protocol.ClientError(err)
	w.send("error", map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}})
}
