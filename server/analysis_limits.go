package server

import (
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Limits of the engine work one client may ask for (the analysis board's streams and
// post-game analysis requests; protocol.AnalysisPerClient and its neighbours): a
// client is the player of the bearer token, else its address; the address is the
// second line, so that players made up by the dozen behind one address still share
// its cap.

// analysisCaller names who asks for engine work: "player:<id>" for a valid bearer
// token, else "ip:<address>" (no token, or one the server does not know); ip is the
// client address.
func (s *Server) analysisCaller(c echo.Context) (who, ip string) {
	ip = c.RealIP()
	if c.Request().Header.Get("Authorization") != "" {
		if p, err := s.bearer(c); err == nil {
			return "player:" + p.ID, ip
		}
	}
	return "ip:" + ip, ip
}

// ipCaller is analysisCaller without identities: every client is its address.
func ipCaller(c echo.Context) (who, ip string) {
	ip = c.RealIP()
	return "ip:" + ip, ip
}

// callerLimits caps what runs at once per client and per client address.
type callerLimits struct {
	perCaller, perIP *ipLimiter
	// errCaller and errIP refuse a request over each cap (analysis_limit).
	errCaller, errIP error
}

func newCallerLimits(perCaller, perIP int, errCaller, errIP error) *callerLimits {
	return &callerLimits{perCaller: newIPLimiter(perCaller), perIP: newIPLimiter(perIP), errCaller: errCaller, errIP: errIP}
}

// acquire takes a slot of who and of ip; release gives both back (once, whatever
// the number of calls).
func (l *callerLimits) acquire(who, ip string) (release func(), err error) {
	if !l.perCaller.acquire(who) {
		return nil, l.errCaller
	}
	if !l.perIP.acquire(ip) {
		l.perCaller.release(who)
		return nil, l.errIP
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			l.perCaller.release(who)
			l.perIP.release(ip)
		})
	}, nil
}

var (
	errBoardPerCaller = protocol.NewError("server", protocol.CodeAnalysisLimit,
		"you are running as many analyses as you may at once: stop one first")
	errBoardPerIP = protocol.NewError("server", protocol.CodeAnalysisLimit,
		"too many analyses at once from your address: stop one first")
	errGamesPerCaller = protocol.NewError("server", protocol.CodeAnalysisLimit,
		"the server is already analysing as many of your games as you may ask for at once: wait for one to finish")
	errGamesPerIP = protocol.NewError("server", protocol.CodeAnalysisLimit,
		"the server is already analysing as many games for your address as it allows at once: wait for one to finish")
)

// newGameAnalysisLimits bounds the post-game analyses each client has computing at once.
func newGameAnalysisLimits() *callerLimits {
	return newCallerLimits(protocol.AnalysisPerClient, protocol.AnalysisPerAddress, errGamesPerCaller, errGamesPerIP)
}

// timeQuota bounds the engine time each client (or address) spends per window: an
// analysis takes its time up front and gives back what it did not use.
type timeQuota struct {
	mu     sync.Mutex
	limit  time.Duration
	window time.Duration
	m      map[string]*quotaEntry
}

type quotaEntry struct {
	start time.Time
	used  time.Duration
}

func newTimeQuota(limit, window time.Duration) *timeQuota {
	return &timeQuota{limit: limit, window: window, m: map[string]*quotaEntry{}}
}

// take grants up to want of the quota of key (a client or an address) at now; refund
// gives back an unused part.
func (q *timeQuota) take(key string, want time.Duration, now time.Time) (grant time.Duration, refund func(time.Duration)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.m[key]
	if e == nil || now.Sub(e.start) >= q.window {
		if len(q.m) > 50_000 {
			q.prune(now)
		}
		e = &quotaEntry{start: now}
		q.m[key] = e
	}
	grant = min(want, max(q.limit-e.used, 0))
	e.used += grant
	return grant, func(d time.Duration) {
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.m[key] == e {
			e.used = max(e.used-d, 0)
		}
	}
}

// prune forgets the windows that ended (under mu).
func (q *timeQuota) prune(now time.Time) {
	for k, e := range q.m {
		if now.Sub(e.start) >= q.window {
			delete(q.m, k)
		}
	}
}
