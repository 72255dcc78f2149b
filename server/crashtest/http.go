package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gomoku-arena/gomoku/room"
)

// Player is a registered player (POST /api/players).
type Player struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

// HTTPError is a non-2xx answer of the API.
type HTTPError struct {
	Status int
	Code   string
	Body   string
}

func (e *HTTPError) Error() string { return fmt.Sprintf("HTTP %d %s: %s", e.Status, e.Code, e.Body) }

var httpClient = &http.Client{Timeout: 5 * time.Second}

// call does one JSON request; out may be nil.
func call(ctx context.Context, method, url, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		var e struct {
			Error struct{ Code string } `json:"error"`
		}
		_ = json.Unmarshal(data, &e)
		return &HTTPError{Status: res.StatusCode, Code: e.Error.Code, Body: string(bytes.TrimSpace(data))}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// NewPlayer registers a player.
func NewPlayer(ctx context.Context, base, name string) (Player, error) {
	var p Player
	err := call(ctx, http.MethodPost, base+"/api/players", "", map[string]string{"name": name}, &p)
	return p, err
}

// CreateRoom creates a room with the given body (docs/protocol.md POST /api/rooms).
func CreateRoom(ctx context.Context, base, token string, body map[string]any) (room.Snapshot, error) {
	var out struct {
		Room room.Snapshot `json:"room"`
	}
	err := call(ctx, http.MethodPost, base+"/api/rooms", token, body, &out)
	return out.Room, err
}

// GetRoom fetches a room's snapshot.
func GetRoom(ctx context.Context, base, id string) (room.Snapshot, error) {
	var s room.Snapshot
	err := call(ctx, http.MethodGet, base+"/api/rooms/"+id, "", nil, &s)
	return s, err
}

// Ready reports whether GET /readyz answers 200.
func Ready(ctx context.Context, base string) bool {
	return call(ctx, http.MethodGet, base+"/readyz", "", nil, nil) == nil
}
