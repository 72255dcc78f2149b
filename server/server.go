package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/analysis"
	"github.com/gomoku-arena/gomoku/room/ledger"
	"github.com/gomoku-arena/gomoku/room/pairing"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/puzzles"
	"github.com/gomoku-arena/gomoku/room/replica"
)

// Deps are the parts a Server is built on. Close (optional) is called last by Shutdown.
type Deps struct {
	Rooms   Rooms
	Players Players
	// Logins limits password attempts per account and per address (its counts live in
	// Redis, so the limit holds across nodes).
	Logins *LoginLimiter
	// Ping measures store reachability for /readyz and the Redis latency metric
	// (nil: Rooms.Ready).
	Ping func(ctx context.Context) error
	// Nodes, when set, tells operators which node holds a room's lease
	// (GET /admin/rooms/:id/holder).
	Nodes Nodes
	// Scheduler, when set, is the rooms' AI scheduler: the classroom's searches run on
	// its background lane (nil: a scheduler of its own).
	Scheduler *room.Scheduler
	// Analysis, when set, serves post-game analyses (nil: the routes answer not_found).
	Analysis *analysis.Service
	// Ledger, when set, holds ratings and finished-game indexes (package ledger).
	Ledger *ledger.Ledger
	// Pairing is the seek pool of quick pairing (nil: the lobby WebSocket pushes the
	// lists only); Rooms must implement PairedRooms for it.
	Pairing *pairing.Store
	// Puzzles and PuzzleSolver serve the puzzle trainer (either nil: its routes answer
	// not_found).
	Puzzles      *puzzles.Store
	PuzzleSolver puzzles.Solver
	// Ratings gives players' ratings for pairing (nil: DefaultRating for everyone).
	Ratings RatingSource
	Close   func() error
}

// Nodes reports which node runs a room (replica.Node implements it).
type Nodes interface {
	Holder(ctx context.Context, id string) (replica.Holder, error)
}

// Server is a complete gomokud: the Echo HTTP API, the WebSocket endpoint, the static
// frontend, metrics and health, over a room layer.
type Server struct {
	cfg     Config
	log     *slog.Logger
	echo    *echo.Echo
	rooms   Rooms
	players Players
	limiter *LoginLimiter
	hasher  *hasher
	deps    Deps
	metrics *Metrics
	ipConns *ipLimiter
	posts   *ipRate
	// gameAnalyses bounds the post-game analyses each client has computing at once.
	gameAnalyses *callerLimits
	// analysisStreams bounds the analysis streams each client has open; analysisTick
	// is how often a stream reads the analysis (tests shorten it).
	analysisStreams *callerLimits
	analysisTick    time.Duration
	origins         originChecker
	upgrader        websocket.Upgrader
	lobby           *lobbyHub
	pairing         *pairingService // nil without Deps.Pairing
	bgStop          context.CancelFunc
	bgDone          sync.WaitGroup

	mu       sync.Mutex
	conns    map[*conn]struct{}
	draining atomic.Bool
	httpSrv  *http.Server
	connWG   sync.WaitGroup
	shutOnce sync.Once
	shutErr  error
}

// NewWith builds a Server over the given dependencies (tests inject fakes or an
// in-process store; New in open.go builds the production ones).
func NewWith(cfg Config, deps Deps) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if deps.Rooms == nil || deps.Players == nil || deps.Logins == nil {
		return nil, errors.New("server: Rooms, Players and Logins are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Server{
		cfg:             cfg,
		log:             cfg.Logger,
		rooms:           deps.Rooms,
		players:         deps.Players,
		limiter:         deps.Logins,
		hasher:          newHasher(cfg.Argon2, runtime.GOMAXPROCS(0)),
		deps:            deps,
		metrics:         newMetrics(),
		ipConns:         newIPLimiter(cfg.MaxConnsPerIP),
		posts:           newIPRate(1, 20),
		gameAnalyses:    newGameAnalysisLimits(),
		analysisStreams: newAnalysisStreamLimits(),
		analysisTick:    analysisTick,
		origins:         newOriginChecker(cfg.AllowedOrigins),
		conns:           map[*conn]struct{}{},
	}
	s.metrics.countRooms(deps.Rooms.Live)
	s.upgrader = websocket.Upgrader{
		// Small read buffer (client frames are a few hundred bytes at most; larger ones,
		// up to the read limit, take more reads); the 4 KiB buffer net/http allocated for
		// the request is freed when the handler returns.
		ReadBufferSize:    256,
		HandshakeTimeout:  10 * time.Second,
		CheckOrigin:       func(*http.Request) bool { return true }, // checked before Upgrade
		EnableCompression: false,
		// Write buffers come from a pool and go back after each message, so an idle
		// connection holds none (without a pool gorilla keeps the hijacked 4 KiB
		// buffer for the connection's lifetime).
		WriteBufferSize: writeBufferSize,
		WriteBufferPool: &sync.Pool{},
	}
	s.echo = s.routes()
	s.lobby = newLobbyHub(s)
	if deps.Pairing != nil {
		pr, ok := deps.Rooms.(PairedRooms)
		if !ok {
			return nil, errors.New("server: Deps.Pairing needs Rooms that implement PairedRooms")
		}
		s.pairing = newPairingService(s, deps.Pairing, pr)
	}
	bg, stop := context.WithCancel(context.Background())
	s.bgStop = stop
	s.bgDone.Add(1)
	go func() { defer s.bgDone.Done(); s.lobby.run(bg) }()
	if s.pairing != nil {
		s.bgDone.Add(1)
		go func() { defer s.bgDone.Done(); s.pairing.run(bg) }()
	}
	return s, nil
}

// Handler returns the HTTP handler (API, WebSocket, frontend).
func (s *Server) Handler() http.Handler { return s.echo }

// Metrics returns the server's metrics (its registry is served at /metrics).
func (s *Server) Metrics() *Metrics { return s.metrics }

// Start serves on ln until Shutdown; it returns nil after a graceful shutdown.
func (s *Server) Start(ln net.Listener) error {
	s.mu.Lock()
	s.httpSrv = &http.Server{
		Handler:           s.echo,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelDebug),
	}
	srv := s.httpSrv
	s.mu.Unlock()
	s.log.Info("listening", "addr", ln.Addr().String())
	err := srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on cfg.Addr and serves.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("server: listen: %w", err)
	}
	return s.Start(ln)
}

// Shutdown stops accepting, closes every WebSocket with 1001 (clients reconnect, to
// another node or after the restart), stops the rooms (flushing pending writes) and
// closes the store, all within ctx. It is safe to call more than once.
func (s *Server) Shutdown(ctx context.Context) error {
	s.shutOnce.Do(func() { s.shutErr = s.shutdown(ctx) })
	return s.shutErr
}

func (s *Server) shutdown(ctx context.Context) error {
	start := time.Now()
	var errs []error
	s.mu.Lock()
	// Under mu: no connection registers (connWG.Add) after this point.
	s.draining.Store(true)
	srv := s.httpSrv
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	if srv != nil {
		// Stop accepting; Shutdown does not wait for hijacked (WebSocket) connections.
		sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		if err := srv.Shutdown(sctx); err != nil {
			_ = srv.Close()
		}
		cancel()
	}
	for _, c := range conns {
		c.requestClose(closeGoingAway, closeReasonGone)
	}
	waitDone := make(chan struct{})
	go func() { s.connWG.Wait(); close(waitDone) }()
	select {
	case <-waitDone:
	case <-ctx.Done():
		errs = append(errs, fmt.Errorf("server: connections still open: %w", ctx.Err()))
	}
	if s.deps.Analysis != nil {
		s.deps.Analysis.Close() // progress stays stored; another node or the restart resumes it
	}
	s.bgStop()
	s.bgDone.Wait()
	if err := s.rooms.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("server: rooms: %w", err))
	}
	if s.deps.Close != nil {
		if err := s.deps.Close(); err != nil {
			errs = append(errs, fmt.Errorf("server: store: %w", err))
		}
	}
	s.log.Info("shut down", "connections_closed", len(conns), "took", time.Since(start).Round(time.Millisecond))
	return errors.Join(errs...)
}

// edgeError is what a client is told about err (protocol.ClientError); the errors that
// are not the client's fault are logged with their cause, which the client never sees.
func (s *Server) edgeError(err error) *protocol.Error {
	e := protocol.ClientError(err)
	switch e.Code {
	case protocol.CodeInternal:
		s.log.Error("internal error", "err", err)
	case protocol.CodeUnavailable:
		s.log.Warn("store unavailable", "err", err)
	}
	return e
}

// ipRate is a per-IP token bucket for expensive HTTP calls (creating players and rooms).
type ipRate struct {
	mu    sync.Mutex
	r     rate.Limit
	burst int
	m     map[string]*rate.Limiter
}

func newIPRate(perSec float64, burst int) *ipRate {
	return &ipRate{r: rate.Limit(perSec), burst: burst, m: map[string]*rate.Limiter{}}
}

func (l *ipRate) allow(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.m[ip]
	if !ok {
		if len(l.m) > 50_000 { // bound memory: forget everyone (a burst is harmless)
			l.m = map[string]*rate.Limiter{}
		}
		lim = rate.NewLimiter(l.r, l.burst)
		l.m[ip] = lim
	}
	return lim.Allow()
}
