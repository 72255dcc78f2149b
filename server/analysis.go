package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/analysis"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Post-game analysis (docs/protocol.md, "Analysis"): POST starts it (or finds it done
// or running on some node), GET reads it, and GET .../analysis/stream follows it as
// server-sent events (analysis_stream.go); each answer carries every position analysed
// so far. The work runs on the AI
// scheduler's background lane (room/analysis). The games of rooms with the setting
// auto_analysis are analysed without asking: the node that stores a game's end queues
// it (analysisGameEnds), and a GET finding nothing queues it again.

// Analysis statuses on the wire besides analysis.StatusRunning and StatusDone.
const (
	analysisStopped = "stopped" // a partial result no node is computing: POST resumes it
	analysisQueued  = "queued"  // a game the server analyses by itself, waiting for a slot
)

// analysisReply is the JSON of an analysis.
type analysisReply struct {
	Room string `json:"room"`
	Game int    `json:"game"`
	analysis.Result
}

// gameSource rebuilds a game of a room (ManagerRooms).
type gameSource interface {
	GameSnapshot(ctx context.Context, id string, n int) (room.Snapshot, error)
}

// GameSnapshot returns game n of a room (0: the current one) as it stood at its end,
// rebuilt by room.ReplayGame like the room's records (a missing game: no_such_game).
func (a *ManagerRooms) GameSnapshot(ctx context.Context, id string, n int) (room.Snapshot, error) {
	events, err := a.M.Store().Events(ctx, id, 1)
	if errors.Is(err, room.ErrNotFound) {
		return room.Snapshot{}, room.ErrNoSuchRoom
	}
	if err != nil {
		return room.Snapshot{}, err
	}
	if n == 0 && len(events) > 0 {
		n = max(events[len(events)-1].Game, 1)
	}
	st, _, _, err := room.ReplayGame(events, n)
	if err != nil {
		return room.Snapshot{}, err
	}
	return st.Snapshot(time.Now()), nil
}

// analysisTarget reads the room id and ?game of a request and rebuilds that game.
func (s *Server) analysisTarget(c echo.Context) (string, room.Snapshot, error) {
	id := c.Param("id")
	if !validRoomID(id) {
		return "", room.Snapshot{}, protocol.Errorf(protocol.CodeNoSuchRoom, "no such room")
	}
	if s.deps.Analysis == nil {
		return "", room.Snapshot{}, protocol.Errorf(protocol.CodeNotFound, "this server does not analyse games")
	}
	src, ok := s.rooms.(gameSource)
	if !ok {
		return "", room.Snapshot{}, protocol.Errorf(protocol.CodeNotFound, "this server does not analyse games")
	}
	n := 0
	if q := c.QueryParam("game"); q != "" {
		v, err := strconv.Atoi(q)
		if err != nil || v < 1 {
			return "", room.Snapshot{}, protocol.Errorf(protocol.CodeBadRequest, `"game" must be a game number (1, 2, …)`)
		}
		n = v
	}
	snap, err := src.GameSnapshot(c.Request().Context(), id, n)
	return id, snap, err
}

// startAnalysis serves POST /api/rooms/:id/analysis?game=N. A game the server
// analyses by itself (autoAnalysed) is only queued again if need be; any other game
// counts against the caller's post-game analyses (analysis_limit) while this node
// computes it for them.
func (s *Server) startAnalysis(c echo.Context) error {
	if !s.posts.allow(c.RealIP()) {
		return protocol.Errorf(protocol.CodeRateLimited, "too many requests, slow down")
	}
	id, snap, err := s.analysisTarget(c)
	if err != nil {
		return err
	}
	if snap.Phase != room.PhaseOver {
		return protocol.Errorf(protocol.CodeGameNotOver, "only a finished game is analysed")
	}
	g, err := analysisGame(snap)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, leased, err := s.deps.Analysis.Get(ctx, id, snap.Game)
	if err != nil {
		return err
	}
	reply := newAnalysisReply(id, snap.Game, g, res)
	switch {
	case res != nil && res.Status == analysis.StatusDone:
		return c.JSON(http.StatusAccepted, reply)
	case leased:
		reply.Status = analysis.StatusRunning
		return c.JSON(http.StatusAccepted, reply)
	case autoAnalysed(snap) && s.deps.Analysis.Enqueue(id, snap.Game):
		reply.Status = analysisQueued
		return c.JSON(http.StatusAccepted, reply)
	}
	who, ip := s.analysisCaller(c)
	release, err := s.gameAnalyses.acquire(who, ip)
	if err != nil {
		return err
	}
	res, started, err := s.deps.Analysis.Start(ctx, id, snap.Game, g, release)
	if !started {
		release()
	}
	if errors.Is(err, analysis.ErrBusy) {
		return protocol.Errorf(protocol.CodeAnalysisBusy, "the server is analysing as many games as it can: try again in a minute")
	}
	if err != nil {
		return err
	}
	reply = newAnalysisReply(id, snap.Game, g, res)
	if reply.Status != analysis.StatusDone {
		reply.Status = analysis.StatusRunning
	}
	return c.JSON(http.StatusAccepted, reply)
}

// newAnalysisReply is the answer for a game's stored analysis res (nil: nothing
// stored yet, an empty one of g).
func newAnalysisReply(id string, game int, g analysis.Game, res *analysis.Result) analysisReply {
	reply := analysisReply{Room: id, Game: game}
	if res != nil {
		reply.Result = *res
		return reply
	}
	reply.Result = analysis.Result{Size: g.Size, Rule: g.Rule.String(), Total: len(g.Moves) + 1, Positions: []analysis.Position{}}
	for _, m := range g.Moves {
		reply.Moves = append(reply.Moves, m.String())
	}
	return reply
}

// autoAnalysed reports whether the server analyses a finished game by itself: its
// room has the setting auto_analysis (games against the AI) and it ended with a
// result (an aborted game is not worth it).
func autoAnalysed(snap room.Snapshot) bool {
	return snap.Phase == room.PhaseOver && snap.Settings.AutoAnalysis && snap.Result != room.ResultAborted
}

// getAnalysis serves GET /api/rooms/:id/analysis?game=N[&format=sgf]. A game the
// server analyses by itself with no analysis stored or computing (its end reached no
// node's queue: that node stopped first) is queued here.
func (s *Server) getAnalysis(c echo.Context) error {
	id, snap, err := s.analysisTarget(c)
	if err != nil {
		return err
	}
	format := c.QueryParam("format")
	if format != "" && format != "json" && format != "sgf" {
		return protocol.Errorf(protocol.CodeBadRequest, `"format" must be json or sgf`)
	}
	reply, found, err := s.analysisView(c.Request().Context(), id, snap, format != "sgf")
	if err != nil {
		return err
	}
	if !found {
		return errNotAnalysed
	}
	if format == "sgf" {
		if reply.Status != analysis.StatusDone {
			return protocol.Errorf(protocol.CodeConflict, "the analysis is not finished yet")
		}
		c.Response().Header().Set("Content-Disposition", `attachment; filename="gomoku-`+id+`-`+strconv.Itoa(snap.Game)+`-analysis.sgf"`)
		return c.Blob(http.StatusOK, "application/x-go-sgf; charset=utf-8", analysisSGF(snap, reply.Result))
	}
	return c.JSON(http.StatusOK, reply)
}

var errNotAnalysed = protocol.NewError("server", protocol.CodeNotFound, "this game has not been analysed: POST to start")

// analysisView is the stored analysis of a game as GET answers it: status "stopped"
// when partial and computed by no node; with requeue, a game the server analyses by
// itself that no node computes is queued again ("queued"). found is false when nothing
// is stored or computing.
func (s *Server) analysisView(ctx context.Context, id string, snap room.Snapshot, requeue bool) (reply analysisReply, found bool, err error) {
	res, leased, err := s.deps.Analysis.Get(ctx, id, snap.Game)
	if err != nil {
		return analysisReply{}, false, err
	}
	if requeue && !leased && (res == nil || res.Status != analysis.StatusDone) && autoAnalysed(snap) {
		if g, err := analysisGame(snap); err == nil && s.deps.Analysis.Enqueue(id, snap.Game) {
			reply := newAnalysisReply(id, snap.Game, g, res)
			reply.Status = analysisQueued
			return reply, true, nil
		}
	}
	if res == nil {
		if leased {
			return analysisReply{Room: id, Game: snap.Game,
				Result: analysis.Result{Status: analysis.StatusRunning, Positions: []analysis.Position{}}}, true, nil
		}
		return analysisReply{}, false, nil
	}
	if res.Status != analysis.StatusDone && !leased {
		res.Status = analysisStopped
	}
	return analysisReply{Room: id, Game: snap.Game, Result: *res}, true, nil
}

// analysisGame is the game of a snapshot for the analysis.
func analysisGame(snap room.Snapshot) (analysis.Game, error) {
	rule, err := engine.ParseRule(snap.Settings.Rule)
	if err != nil {
		return analysis.Game{}, err
	}
	g := analysis.Game{Size: snap.Settings.Size, Rule: rule, OpeningPlies: snap.OpeningPlies}
	for _, m := range snap.Moves {
		p, err := engine.ParsePoint(m, g.Size)
		if err != nil {
			return analysis.Game{}, err
		}
		g.Moves = append(g.Moves, p)
	}
	return g, nil
}
