package wstest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
)

// scripted serves one room: it expects hello, then sends frames and closes with 1001.
func scripted(t *testing.T, frames ...string) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		if _, _, err := ws.ReadMessage(); err != nil {
			return
		}
		for _, f := range frames {
			if ws.WriteMessage(websocket.TextMessage, []byte(f)) != nil {
				return
			}
		}
		_ = ws.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "shutting_down"))
		_, _, _ = ws.ReadMessage()
	}))
	t.Cleanup(ts.Close)
	return ts
}

func TestClientViewAndProblems(t *testing.T) {
	ts := scripted(t,
		`{"type":"welcome","room_id":"r1","you":{"role":"black"}}`,
		`{"type":"snapshot","seq":2,"room":{"id":"r1","seq":2,"phase":"playing","moves":[]}}`,
		`{"type":"event","seq":3,"event":{"seq":3,"kind":"move","color":"black","point":"h8","ply":0}}`,
		`{"type":"event","seq":5,"event":{"seq":5,"kind":"move","color":"white","point":"i9","ply":1}}`,
		`{"type":"event","seq":5,"event":{"seq":5,"kind":"move","color":"white","point":"i9","ply":1}}`,
	)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := NewClient(ts.URL, "r1", "token")
	require.NoError(t, c.Connect(ctx))
	v, err := c.Wait(ctx, func(v View) bool { return !v.Alive })
	require.NoError(t, err)
	require.Equal(t, "black", v.Role)
	require.Equal(t, []string{"h8", "i9"}, v.Moves)
	require.EqualValues(t, 5, v.LastSeq)
	require.Len(t, c.Events(), 3, "every event frame received, repeats included")
	problems := c.Problems()
	require.Len(t, problems, 2, "%q", problems)
	require.Contains(t, problems[0], "seq gap: event 5 after 3")
	require.Contains(t, problems[1], "event seq 5 repeated")
}

func TestDialNextAndCloseError(t *testing.T) {
	ts := scripted(t, `{"type":"pong","id":"p"}`)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, ts.URL, "r1", nil)
	require.NoError(t, err)
	require.NoError(t, c.Send(`{"type":"ping","id":"p"}`))
	m, err := c.Next(ctx)
	require.NoError(t, err)
	require.Equal(t, "pong", m.Type)
	require.Equal(t, "p", m.ID)
	_, err = c.Next(ctx)
	var ce *websocket.CloseError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, websocket.CloseGoingAway, ce.Code)
	require.Equal(t, "shutting_down", ce.Text)
}
