package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// ErrNotLoopback refuses targets outside this machine: the load generator only ever
// runs against loopback addresses.
var ErrNotLoopback = errors.New("load: target is not a loopback address (gomoku load only runs against this machine: 127.0.0.0/8, ::1 or localhost)")

// CheckLoopback parses a target base URL (http://host:port, or a redis:// URL) and
// returns its normalised form; any host that is not loopback is refused.
func CheckLoopback(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("load: target %q: %w", raw, err)
	}
	switch u.Scheme {
	case "http", "ws", "redis":
	default:
		return nil, fmt.Errorf("load: target %q: scheme must be http (or redis for -raw-redis)", raw)
	}
	host := u.Hostname()
	if host == "" {
		return nil, fmt.Errorf("load: target %q has no host", raw)
	}
	if strings.EqualFold(host, "localhost") {
		return u, nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("%w: %q", ErrNotLoopback, host)
	}
	return u, nil
}

// sourceIPs hands out local source addresses from 127.0.0.0/8 so that the server's
// per-IP limits (POST rate, connections per IP) see many clients, as they would in
// production. Slot n maps to 127.A.B.C with C in 1..250.
type sourceIPs struct {
	on bool
}

func (s sourceIPs) addr(slot int) *net.TCPAddr {
	if !s.on {
		return nil
	}
	c := 1 + slot%250
	b := (slot / 250) % 250
	a := 2 + slot/62500
	if a > 254 {
		a = 254
	}
	return &net.TCPAddr{IP: net.IPv4(127, byte(a), byte(b), byte(c))}
}

// dialer returns a DialContext from the slot's source address.
func (s sourceIPs) dialer(slot int) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second, LocalAddr: s.addr(slot)}
	return d.DialContext
}

// api is the HTTP side: one client per source slot (kept alive).
type api struct {
	base  string
	ips   sourceIPs
	mu    sync.Mutex
	byIP  map[int]*http.Client
	stats *Stats
}

func newAPI(base string, ips sourceIPs, stats *Stats) *api {
	return &api{base: base, ips: ips, byIP: map[int]*http.Client{}, stats: stats}
}

func (a *api) client(slot int) *http.Client {
	if !a.ips.on {
		slot = 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.byIP[slot]
	if c == nil {
		c = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
			DialContext: a.ips.dialer(slot), MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second,
		}}
		a.byIP[slot] = c
	}
	return c
}

// apiError is an HTTP error reply.
type apiError struct {
	Status int
	Code   string
	Msg    string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("load: HTTP %d %s: %s", e.Status, e.Code, e.Msg)
}

// post sends a JSON body and decodes a JSON reply into out; 429 is retried after a pause
// until ctx ends.
func (a *api) post(ctx context.Context, slot int, path, token string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := a.client(slot).Do(req)
		if err != nil {
			a.stats.Error("http")
			return fmt.Errorf("load: POST %s: %w", path, err)
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("load: POST %s: %w", path, err)
		}
		if resp.StatusCode/100 == 2 {
			return json.Unmarshal(data, out)
		}
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = json.Unmarshal(data, &e)
		a.stats.Error(e.Error.Code)
		if resp.StatusCode == http.StatusTooManyRequests {
			select {
			case <-time.After(time.Second):
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return &apiError{Status: resp.StatusCode, Code: e.Error.Code, Msg: e.Error.Message}
	}
}

// player is a registered identity.
type player struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

func (a *api) register(ctx context.Context, slot int, name string) (player, error) {
	var p player
	err := a.post(ctx, slot, "/api/players", "", map[string]string{"name": name}, &p)
	return p, err
}

// createRoom creates a freestyle room with the creator as black, against an open human
// seat or (ai != "") an AI of that level.
func (a *api) createRoom(ctx context.Context, slot int, token string, public bool, ai string) (string, error) {
	var out struct {
		Room struct {
			ID string `json:"id"`
		} `json:"room"`
	}
	body := map[string]any{"rule": "freestyle", "me": "black", "opponent": map[string]string{"kind": "human"},
		"public": public, "takebacks": false, "chat": false}
	if ai != "" {
		body["opponent"] = map[string]string{"kind": "ai", "level": ai}
	}
	if err := a.post(ctx, slot, "/api/rooms", token, body, &out); err != nil {
		return "", err
	}
	return out.Room.ID, nil
}

// wsURL returns the room's WebSocket URL.
func wsURL(base, roomID string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "/ws/rooms/" + roomID
}
