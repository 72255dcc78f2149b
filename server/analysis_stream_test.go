package server

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// TestAnalysisStream: a stream of a running analysis sends its state at once, its
// progress as positions are analysed, and the finished analysis as its last event.
// A client holds at most its cap of streams. The analysis waits until the test frees the AI scheduler's slots, so the stream
// surely begins before any position is done.
func TestAnalysisStream(t *testing.T) {
	e := newEnv(t, nil)
	e.srv.analysisTick = 5 * time.Millisecond
	e.srv.analysisStreams = newCallerLimits(1, protocol.AnalysisStreamsPerAddress, errStreamsPerCaller, errStreamsPerIP)
	id := finishedGame(t, e)
	path := "/api/rooms/" + id + "/analysis"
	url := e.ts.URL + path + "/stream?game=1"

	status, _, body, _ := openSSE(t, url, "", "")
	requireRefused(t, status, body, http.StatusNotFound, protocol.CodeNotFound)

	// Every slot taken by live searches: the background analysis cannot run.
	sched := e.srv.rooms.(*ManagerRooms).M.Scheduler()
	_, _, slots := sched.Stats()
	var releases []func()
	for range slots {
		rel, err := sched.Acquire(context.Background(), nil)
		require.NoError(t, err)
		releases = append(releases, rel)
	}
	freed := false
	free := func() {
		if !freed {
			freed = true
			for _, rel := range releases {
				rel()
			}
		}
	}
	defer free()

	var got analysisJSON
	require.Equal(t, http.StatusAccepted, e.do("POST", path, "", nil, &got))
	require.Equal(t, "running", got.Status)

	status, ch, body, stop := openSSE(t, url, "", "")
	defer stop()
	require.Equal(t, http.StatusOK, status, string(body))
	ev := next(t, ch)
	require.Equal(t, "analysis", ev.name, ev.data)
	require.NoError(t, json.Unmarshal([]byte(ev.data), &got))
	assert.Equal(t, "running", got.Status)
	assert.Empty(t, got.Positions, "nothing analysed while the slots are taken")
	status, _, body, _ = openSSE(t, url, "", "")
	requireRefused(t, status, body, http.StatusTooManyRequests, protocol.CodeAnalysisLimit)
	free()

	progress, seen := 0, 0
	for {
		ev = next(t, ch)
		got = analysisJSON{}
		require.NoError(t, json.Unmarshal([]byte(ev.data), &got))
		if ev.name != "analysis" {
			break
		}
		assert.Equal(t, "running", got.Status)
		assert.Greater(t, len(got.Positions), seen, "a state is sent when it changed")
		seen = len(got.Positions)
		progress++
	}
	require.Equal(t, "end", ev.name, ev.data)
	assert.Equal(t, "done", got.Status)
	assert.Equal(t, id, got.Room)
	require.Len(t, got.Positions, 10)
	assert.Positive(t, progress, "progress comes before the end")
	_, open := <-ch
	require.False(t, open, "the stream ends after the end event")

	// A finished analysis: one end event (the first stream's slot was given back).
	status, ch, body, stop2 := openSSE(t, url, "", "")
	defer stop2()
	require.Equal(t, http.StatusOK, status, string(body))
	ev = next(t, ch)
	require.Equal(t, "end", ev.name)
	_, open = <-ch
	require.False(t, open)
}
