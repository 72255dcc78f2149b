package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// routes builds the Echo instance with every route of docs/protocol.md.
func (s *Server) routes() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.httpError
	e.IPExtractor = ipExtractor(s.cfg.TrustedProxies)
	e.Use(s.recoverMW, securityHeaders, s.accessLog, gzipMW())

	// Unknown methods on known routes are 405 method_not_allowed with an Allow header
	// (Echo's router); unknown paths are 404 (JSON under /api/, an HTML page elsewhere).
	api := e.Group("/api")
	api.POST("/players", s.createPlayer)
	api.Match(getHead, "/players/me", s.me)
	api.PATCH("/players/me", s.renameMe)
	api.Match(getHead, "/players/:id", s.playerPage)
	api.Match(getHead, "/leaderboard", s.leaderboard)
	api.Match(getHead, "/pairing/pools", pairingPools)
	s.accountRoutes(api)
	api.POST("/rooms", s.createRoom)
	api.Match(getHead, "/rooms", s.listRooms)
	api.Match(getHead, "/rooms/:id", s.getRoom)
	api.Match(getHead, "/rooms/:id/record", s.getRecord)
	api.Match(getHead, "/rooms/:id/analysis", s.getAnalysis)
	api.POST("/rooms/:id/analysis", s.startAnalysis)
	api.GET("/rooms/:id/analysis/stream", s.streamAnalysis)
	api.Match(getHead, "/engines", s.engines)
	learn := newLearn(s.deps.Scheduler)
	api.POST("/learn/compare", learn.compare)
	api.POST("/learn/tree", learn.tree)
	api.POST("/learn/eval", learn.eval)
	board := newAnalysisBoard(s.deps.Scheduler)
	board.caller = s.analysisCaller
	api.Match(getHead, "/analysis/position", board.position)
	api.POST("/analysis/import", board.importRecord)
	api.GET("/analysis/stream", board.stream)
	newPuzzleTrainer(s).routes(api)

	// The WebSocket endpoint only upgrades: GET alone.
	e.GET("/ws/rooms/:id", s.websocket)
	e.GET("/ws/lobby", s.websocket)
	e.Match(getHead, "/healthz", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
	})
	e.Match(getHead, "/readyz", s.readyz)
	e.Match(getHead, "/admin/rooms/:id/holder", s.roomHolder)
	e.Match(getHead, "/metrics", echo.WrapHandler(promhttp.HandlerFor(s.metrics.Registry, promhttp.HandlerOpts{})))

	for _, p := range pageRoutes {
		e.Match(getHead, p, page)
	}
	e.Match(getHead, "/static/*", staticFile)
	return e
}

// httpError is the only place errors become HTTP responses.
func (s *Server) httpError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	status := 0
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusNotFound:
			err = protocol.Errorf(protocol.CodeNotFound, "not found")
		case http.StatusMethodNotAllowed:
			err = protocol.Errorf(protocol.CodeMethodNotAllowed, "method not allowed")
		case http.StatusRequestEntityTooLarge:
			err = protocol.Errorf(protocol.CodeTooLarge, "request body too large")
		default:
			// Echo's other refusals keep their status.
			err, status = protocol.Errorf(protocol.CodeBadRequest, "%s", http.StatusText(he.Code)), he.Code
		}
	}
	e := s.edgeError(err)
	if e.Code == protocol.CodeNotFound && !machinePath(c.Request().URL.Path) {
		s.metrics.countError(e.Code)
		_ = notFoundPage(c)
		return
	}
	if status == 0 {
		status = httpStatus(c, e.Code)
	}
	s.metrics.countError(e.Code)
	body := map[string]any{"error": map[string]string{"code": e.Code, "message": e.Message}}
	if c.Request().Method == http.MethodHead {
		c.Response().Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, body)
}

func (s *Server) recoverMW(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler {
					panic(r)
				}
				s.log.Error("panic in handler", "path", c.Path(), "panic", r)
				err = protocol.Errorf(protocol.CodeInternal, "internal error")
			}
		}()
		return next(c)
	}
}

// accessLog logs API requests at debug level (WebSocket sessions log their own end).
func (s *Server) accessLog(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if s.log.Enabled(c.Request().Context(), slog.LevelDebug) {
			status := c.Response().Status
			if err != nil {
				status = httpStatus(c, protocol.Code(err))
			}
			s.log.Debug("http", "method", c.Request().Method, "path", c.Request().URL.Path,
				"status", status, "took", time.Since(start), "ip", c.RealIP())
		}
		return err
	}
}

// readBody reads a bounded JSON body.
func readBody(c echo.Context, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(c.Request().Body, max+1))
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "cannot read body")
	}
	if int64(len(b)) > max {
		return nil, protocol.Errorf(protocol.CodeTooLarge, "body larger than %d bytes", max)
	}
	return b, nil
}

// bearer authenticates the Authorization: Bearer token: the player (guest or account)
// with TokenHash set to the session used.
func (s *Server) bearer(c echo.Context) (Player, error) {
	h := c.Request().Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || strings.TrimSpace(tok) == "" {
		return Player{}, protocol.Errorf(protocol.CodeUnauthorized, "send Authorization: Bearer <token> (POST /api/players gives one)")
	}
	p, err := authenticate(c.Request().Context(), s.players, strings.TrimSpace(tok))
	if err != nil {
		return Player{}, err
	}
	return *p, nil
}

// nameBody applies the per-IP limit of identity writes and reads a {"name": "..."} body
// (a missing name is "", which the name rules refuse).
func (s *Server) nameBody(c echo.Context) (string, error) {
	if !s.posts.allow(c.RealIP()) {
		return "", protocol.Errorf(protocol.CodeRateLimited, "too many requests, slow down")
	}
	b, err := readBody(c, 1024)
	if err != nil {
		return "", err
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(b, &req); err != nil {
		return "", protocol.Errorf(protocol.CodeBadJSON, `body must be {"name": "..."}`)
	}
	return req.Name, nil
}

func (s *Server) createPlayer(c echo.Context) error {
	name, err := s.nameBody(c)
	if err != nil {
		return err
	}
	p, token, err := register(c.Request().Context(), s.players, name, c.Request().UserAgent())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]string{"id": p.ID, "name": p.Name, "token": token})
}

func (s *Server) me(c echo.Context) error {
	p, err := s.bearer(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, meBody(p))
}

// meBody is what GET /api/players/me and PATCH /api/players/me answer.
func meBody(p Player) map[string]any {
	return map[string]any{"id": p.ID, "name": p.Name, "username": p.Username, "account": p.IsAccount()}
}

// renameMe is PATCH /api/players/me {"name"}: the new name or an error, nothing changed.
func (s *Server) renameMe(c echo.Context) error {
	p, err := s.bearer(c)
	if err != nil {
		return err
	}
	name, err := s.nameBody(c)
	if err != nil {
		return err
	}
	p, err = rename(c.Request().Context(), s.players, p, name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, meBody(p))
}

func (s *Server) createRoom(c echo.Context) error {
	p, err := s.bearer(c)
	if err != nil {
		return err
	}
	if !s.posts.allow(c.RealIP()) {
		return protocol.Errorf(protocol.CodeRateLimited, "too many requests, slow down")
	}
	if s.draining.Load() {
		return protocol.Errorf(protocol.CodeShuttingDown, "server is shutting down")
	}
	b, err := readBody(c, maxCreateBody)
	if err != nil {
		return err
	}
	spec, perr := ParseCreateRoom(b, s.cfg.Engines)
	if perr != nil {
		return perr
	}
	info, err := s.rooms.Create(c.Request().Context(), p, spec)
	if err != nil {
		return err
	}
	s.log.Info("room created", "room", info.ID, "by", p.ID, "rule", spec.Rule,
		"black", spec.Black.Kind, "white", spec.White.Kind, "public", spec.Public)
	return c.JSON(http.StatusCreated, map[string]any{"room": info.Snapshot, "invite_url": "/r/" + info.ID})
}

func (s *Server) listRooms(c echo.Context) error {
	q := ListQuery{Status: c.QueryParam("status"), Cursor: c.QueryParam("cursor"), Limit: 20}
	switch q.Status {
	case "":
		q.Status = "live"
	case "live", "open", "finished":
	default:
		return protocol.Errorf(protocol.CodeBadRequest, `"status" must be live, open or finished`)
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			return protocol.Errorf(protocol.CodeBadRequest, `"limit" must be 1..100`)
		}
		q.Limit = n
	}
	if len(q.Cursor) > 128 {
		return protocol.Errorf(protocol.CodeBadRequest, "bad cursor")
	}
	page, err := s.rooms.List(c.Request().Context(), q)
	if err != nil {
		return err
	}
	if page.Rooms == nil {
		page.Rooms = []any{}
	}
	return c.JSON(http.StatusOK, page)
}

func validRoomID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func (s *Server) getRoom(c echo.Context) error {
	id := c.Param("id")
	if !validRoomID(id) {
		return protocol.Errorf(protocol.CodeNoSuchRoom, "no such room")
	}
	snap, err := s.rooms.Snapshot(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, snap)
}

// roomHolder shows operators which node holds a room's lease (it runs the room's
// clocks and AI seats) and whether this node has a copy of the room.
func (s *Server) roomHolder(c echo.Context) error {
	id := c.Param("id")
	if !validRoomID(id) {
		return protocol.Errorf(protocol.CodeNoSuchRoom, "no such room")
	}
	if s.deps.Nodes == nil {
		return protocol.Errorf(protocol.CodeNotFound, "this server runs without room leases")
	}
	h, err := s.deps.Nodes.Holder(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, h)
}

func (s *Server) getRecord(c echo.Context) error {
	id := c.Param("id")
	if !validRoomID(id) {
		return protocol.Errorf(protocol.CodeNoSuchRoom, "no such room")
	}
	format := c.QueryParam("format")
	if format == "" {
		format = "psq"
	}
	ctype, ok := recordTypes[format]
	if !ok {
		return protocol.Errorf(protocol.CodeBadRequest, `"format" must be psq, sgf or json`)
	}
	game, err := recordGame(c.QueryParam("game"))
	if err != nil {
		return err
	}
	body, err := s.rooms.Record(c.Request().Context(), id, game, format)
	if err != nil {
		return err
	}
	if format != "json" {
		name := "gomoku-" + id
		if game > 0 {
			name += "-" + strconv.Itoa(game)
		}
		c.Response().Header().Set("Content-Disposition", `attachment; filename="`+name+`.`+format+`"`)
	}
	return c.Blob(http.StatusOK, ctype, body)
}

// recordGame reads the "game" parameter of a record request: absent means the
// current game (0), else a game number from 1.
func recordGame(q string) (int, error) {
	if q == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(q)
	if err != nil || n < 1 || len(q) > 9 || strings.Trim(q, "0123456789") != "" {
		return 0, protocol.Errorf(protocol.CodeBadRequest, `"game" must be a game number from 1`)
	}
	return n, nil
}

// LevelInfo describes an AI level in GET /api/engines.
type LevelInfo struct {
	Name     string `json:"name"`
	BudgetMS int64  `json:"budget_ms"`
	Depth    int    `json:"depth,omitempty"`
	// Rating is the level's published rating (room/rating: measured by matches
	// between the levels, docs/strength).
	Rating int `json:"rating,omitempty"`
}

func (s *Server) engines(c echo.Context) error {
	levels := []LevelInfo{}
	for _, l := range engine.Levels() {
		r, _ := rating.LevelRating(l.Name)
		levels = append(levels, LevelInfo{Name: l.Name, BudgetMS: l.Budget.Milliseconds(), Depth: l.Depth, Rating: r})
	}
	engines := []map[string]string{}
	for name := range s.cfg.Engines {
		engines = append(engines, map[string]string{"name": name})
	}
	sortByName(engines)
	return c.JSON(http.StatusOK, map[string]any{"levels": levels, "engines": engines})
}

func sortByName(m []map[string]string) {
	for i := 1; i < len(m); i++ {
		for j := i; j > 0 && m[j]["name"] < m[j-1]["name"]; j-- {
			m[j], m[j-1] = m[j-1], m[j]
		}
	}
}

// readyTimeout bounds /readyz's store ping, so that it answers within a second: a load
// balancer's health check with a short timeout sees a 503, not a timeout.
const readyTimeout = 800 * time.Millisecond

// readyz answers 200 while the store answers a ping within readyTimeout.
func (s *Server) readyz(c echo.Context) error {
	if s.draining.Load() {
		return protocol.Errorf(protocol.CodeShuttingDown, "shutting down")
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
	defer cancel()
	start := time.Now()
	var err error
	if s.deps.Ping != nil {
		err = s.deps.Ping(ctx)
	} else {
		err = s.rooms.Ready(ctx)
	}
	s.metrics.RedisLatency.Observe(time.Since(start).Seconds())
	if err != nil {
		return fmt.Errorf("%w: %w", protocol.Errorf(protocol.CodeUnavailable, "store unreachable"), err)
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}

// websocket upgrades GET /ws/rooms/:id and GET /ws/lobby.
func (s *Server) websocket(c echo.Context) error {
	r := c.Request()
	if s.draining.Load() {
		return protocol.Errorf(protocol.CodeShuttingDown, "server is shutting down, reconnect shortly")
	}
	if !s.origins.check(r) {
		return protocol.Errorf(protocol.CodeBadOrigin, "origin not allowed")
	}
	id := c.Param("id") // lobbyRoomID on /ws/lobby
	if c.Path() != "/ws/lobby" && !validRoomID(id) {
		return protocol.Errorf(protocol.CodeNoSuchRoom, "no such room")
	}
	ip := c.RealIP()
	if !s.ipConns.acquire(ip) {
		return protocol.Errorf(protocol.CodeTooManyConns, "too many connections from your address (max %d)", s.cfg.MaxConnsPerIP)
	}
	ws, err := s.upgrader.Upgrade(c.Response(), r, nil)
	if err != nil {
		s.ipConns.release(ip)
		return nil // the upgrader already answered
	}
	cn := newConn(s, ws, id, ip)
	s.mu.Lock()
	if s.draining.Load() {
		s.mu.Unlock()
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(closeGoingAway, closeReasonGone), time.Now().Add(writeWait))
		_ = ws.Close()
		s.ipConns.release(ip)
		return nil
	}
	s.conns[cn] = struct{}{}
	s.connWG.Add(1)
	s.mu.Unlock()
	s.metrics.Connections.Inc()
	s.metrics.ConnectionsTotal.Inc()
	// The reader runs in its own goroutine so that this handler returns: net/http's and
	// Echo's per-request state (buffers, context) is freed for the connection's lifetime.
	go cn.serve()
	return nil
}

// forget takes a finished connection off the books (its reader and writer have
// stopped).
func (s *Server) forget(cn *conn) {
	s.mu.Lock()
	delete(s.conns, cn)
	s.mu.Unlock()
	s.metrics.Connections.Dec()
	s.ipConns.release(cn.ip)
	s.connWG.Done()
}
