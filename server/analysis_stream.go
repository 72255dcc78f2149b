package server

import (
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/room/analysis"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// GET /api/rooms/:id/analysis/stream?game=N follows a post-game analysis as
// server-sent events (docs/protocol.md, "Analysis"): the event "analysis" carries the
// state GET answers, at once and whenever it changes; "end" carries the last state
// (done, stopped, or still computing when the stream reaches analysisStreamMax) and
// the stream ends. The analysis is written by whichever node computes it, so the
// stream watches the store: it reads it every analysisTick (one read of one key) and
// sends a state whose status or number of positions differs from the last one sent.
// Reading costs no engine time; a client holds at most AnalysisStreamsPerClient
// streams at once (its address AnalysisStreamsPerAddress).

const (
	analysisStreamMax  = 10 * time.Minute // a stream's longest life: the page opens a new one
	analysisStreamBeat = 15 * time.Second // heartbeat comments keep proxies from closing it
	analysisTick       = 300 * time.Millisecond
)

var (
	errStreamsPerCaller = protocol.NewError("server", protocol.CodeAnalysisLimit,
		"you are following as many analyses as you may at once: close one first")
	errStreamsPerIP = protocol.NewError("server", protocol.CodeAnalysisLimit,
		"too many analyses followed at once from your address: close one first")
)

// newAnalysisStreamLimits bounds the analysis streams each client has open.
func newAnalysisStreamLimits() *callerLimits {
	return newCallerLimits(protocol.AnalysisStreamsPerClient, protocol.AnalysisStreamsPerAddress, errStreamsPerCaller, errStreamsPerIP)
}

// streamAnalysis serves GET /api/rooms/:id/analysis/stream?game=N. Errors before the
// stream (the GET's, and analysis_limit) are ordinary JSON errors; a failed read of
// the store once it began is an "error" event.
func (s *Server) streamAnalysis(c echo.Context) error {
	id, snap, err := s.analysisTarget(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	last, found, err := s.analysisView(ctx, id, snap, true)
	if err != nil {
		return err
	}
	if !found {
		return errNotAnalysed
	}
	who, ip := s.analysisCaller(c)
	release, err := s.analysisStreams.acquire(who, ip)
	if err != nil {
		return err
	}
	defer release()
	w := newEventWriter(c)
	if analysisEnded(last) {
		w.send("end", last)
		return nil
	}
	w.send("analysis", last)
	tick := time.NewTicker(s.analysisTick)
	defer tick.Stop()
	beat := time.NewTicker(analysisStreamBeat)
	defer beat.Stop()
	limit := time.NewTimer(analysisStreamMax)
	defer limit.Stop()
	for !w.failed {
		select {
		case <-ctx.Done():
			return nil // the client left
		case <-limit.C:
			w.send("end", last)
			return nil
		case <-beat.C:
			w.comment()
		case <-tick.C:
			reply, found, err := s.analysisView(ctx, id, snap, true)
			if ctx.Err() != nil {
				return nil
			}
			if err == nil && !found {
				err = errNotAnalysed
			}
			if err != nil {
				w.fail(err)
				return nil
			}
			if analysisEnded(reply) {
				w.send("end", reply)
				return nil
			}
			if reply.Status != last.Status || len(reply.Positions) != len(last.Positions) {
				w.send("analysis", reply)
				last = reply
			}
		}
	}
	return nil
}

// analysisEnded reports whether an analysis state is final: done, or stopped (no node
// computes it: a POST resumes it).
func analysisEnded(r analysisReply) bool {
	return r.Status == analysis.StatusDone || r.Status == analysisStopped
}
