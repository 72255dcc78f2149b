package server

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// Player pages: GET /api/players/{id} (or /api/players/@{username}) and
// GET /api/leaderboard?pool=…, read from the ratings ledger (package ledger).

const (
	playerGames    = 20  // recent games on a player page
	historyPoints  = 100 // rating-history points per pool
	leaderboardMax = 100
	defaultPool    = "freestyle-blitz"
)

// PoolStats is a player's rating in one pool with its rated games and history.
type PoolStats struct {
	Pool        string         `json:"pool"`
	Rule        string         `json:"rule"`
	Speed       string         `json:"speed"`
	Rating      int            `json:"rating"`
	RD          int            `json:"rd"`
	Provisional bool           `json:"provisional"`
	Display     string         `json:"display"` // "1500?" while provisional
	Games       int            `json:"games"`
	Wins        int            `json:"wins"`
	Draws       int            `json:"draws"`
	Losses      int            `json:"losses"`
	History     []ledger.Point `json:"history"`
}

// PlayerGame is one of a player's recent games, with the link to its replay and, for
// a rated game, the player's rating change as the game page shows it (rounded; the
// rating after it provisional or not).
type PlayerGame struct {
	ledger.GameEntry
	Replay string            `json:"replay"`
	Change *room.RatingDelta `json:"change,omitempty"`
}

// PlayerPage is GET /api/players/{id}.
type PlayerPage struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Username string       `json:"username,omitempty"`
	Account  bool         `json:"account"`
	Ratings  []PoolStats  `json:"ratings"`
	Wins     int          `json:"wins"` // rated games, every pool
	Draws    int          `json:"draws"`
	Losses   int          `json:"losses"`
	Games    []PlayerGame `json:"games"`
}

// LeaderRow is one row of GET /api/leaderboard.
type LeaderRow struct {
	Rank    int    `json:"rank"`
	ID      string `json:"id"`
	Name    string `json:"name"`
	Rating  int    `json:"rating"`
	RD      int    `json:"rd"`
	Display string `json:"display"`
	Games   int    `json:"games"`
	Wins    int    `json:"wins"`
	Draws   int    `json:"draws"`
	Losses  int    `json:"losses"`
}

// replayPath is the page replaying game n of a room.
func replayPath(roomID string, n int) string {
	return "/r/" + url.PathEscape(roomID) + "?game=" + strconv.Itoa(n)
}

// lookupPlayer resolves a player page's key: "@username" (an account) or a player id.
func (s *Server) lookupPlayer(ctx context.Context, key string) (Player, error) {
	id := key
	if len(key) > 1 && key[0] == '@' {
		var err error
		if id, _, err = s.players.Credentials(ctx, key[1:]); err != nil {
			return Player{}, notFoundPlayer(err)
		}
	}
	if id == "" || len(id) > 64 {
		return Player{}, protocol.Errorf(protocol.CodeNotFound, "no such player")
	}
	p, err := s.players.ByID(ctx, id)
	return p, notFoundPlayer(err)
}

func notFoundPlayer(err error) error {
	if errors.Is(err, ErrNoSuchPlayer) {
		return protocol.Errorf(protocol.CodeNotFound, "no such player")
	}
	return err
}

// playerPage is GET /api/players/:id.
func (s *Server) playerPage(c echo.Context) error {
	ctx := c.Request().Context()
	p, err := s.lookupPlayer(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	out := PlayerPage{ID: p.ID, Name: p.Name, Username: p.Username, Account: p.IsAccount(), Ratings: []PoolStats{}, Games: []PlayerGame{}}
	l := s.deps.Ledger
	if l == nil {
		return c.JSON(http.StatusOK, out)
	}
	ratings, err := l.Ratings(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, pool := range rating.Pools() {
		pr, ok := ratings[pool.ID()]
		if !ok {
			continue
		}
		hist, err := l.History(ctx, p.ID, pool.ID(), historyPoints)
		if err != nil {
			return err
		}
		out.Ratings = append(out.Ratings, PoolStats{
			Pool: pool.ID(), Rule: pool.Rule, Speed: string(pool.Speed),
			Rating: int(math.Round(pr.R)), RD: int(math.Round(pr.RD)), Provisional: pr.Provisional(), Display: pr.Display(),
			Games: pr.Games, Wins: pr.Wins, Draws: pr.Draws, Losses: pr.Losses, History: hist,
		})
		out.Wins, out.Draws, out.Losses = out.Wins+pr.Wins, out.Draws+pr.Draws, out.Losses+pr.Losses
	}
	games, err := l.Games(ctx, p.ID, 0, playerGames)
	if err != nil {
		return err
	}
	for _, g := range games {
		pg := PlayerGame{GameEntry: g, Replay: replayPath(g.Room, g.Game)}
		if g.Before != nil && g.After != nil {
			pg.Change = &room.RatingDelta{Before: int(math.Round(g.Before.R)), After: int(math.Round(g.After.R)), Provisional: g.After.Provisional()}
		}
		out.Games = append(out.Games, pg)
	}
	return c.JSON(http.StatusOK, out)
}

// leaderboard is GET /api/leaderboard?pool=…&limit=…: the pool's established players,
// best first.
func (s *Server) leaderboard(c echo.Context) error {
	pool := c.QueryParam("pool")
	if pool == "" {
		pool = defaultPool
	}
	if _, err := rating.ParsePool(pool); err != nil {
		return protocol.Errorf(protocol.CodeBadRequest, `unknown "pool" (rule-speed, e.g. freestyle-blitz)`)
	}
	limit := 50
	if q := c.QueryParam("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > leaderboardMax {
			return protocol.Errorf(protocol.CodeBadRequest, `"limit" must be 1..%d`, leaderboardMax)
		}
		limit = n
	}
	pools := []string{}
	for _, p := range rating.Pools() {
		pools = append(pools, p.ID())
	}
	rows := []LeaderRow{}
	if l := s.deps.Ledger; l != nil {
		leaders, err := l.Leaderboard(c.Request().Context(), pool, int64(limit))
		if err != nil {
			return err
		}
		for i, e := range leaders {
			rows = append(rows, LeaderRow{Rank: i + 1, ID: e.PlayerID, Name: e.Name, Rating: int(math.Round(e.R)), RD: int(math.Round(e.RD)),
				Display: e.Display(), Games: e.Games, Wins: e.Wins, Draws: e.Draws, Losses: e.Losses})
		}
	}
	return c.JSON(http.StatusOK, map[string]any{"pool": pool, "pools": pools, "players": rows})
}
