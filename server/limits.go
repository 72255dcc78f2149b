package server

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// ipLimiter caps concurrent WebSocket connections per client IP.
type ipLimiter struct {
	max int
	mu  sync.Mutex
	n   map[string]int
}

func newIPLimiter(max int) *ipLimiter { return &ipLimiter{max: max, n: map[string]int{}} }

// acquire takes a slot for ip; false when the IP is at its cap.
func (l *ipLimiter) acquire(ip string) bool {
	if l.max <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[ip] >= l.max {
		return false
	}
	l.n[ip]++
	return true
}

// release returns a slot taken by acquire.
func (l *ipLimiter) release(ip string) {
	if l.max <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[ip] <= 1 {
		delete(l.n, ip)
		return
	}
	l.n[ip]--
}

// originChecker implements the WebSocket Origin allow-list.
type originChecker struct {
	any     bool
	allowed map[string]bool // "scheme://host[:port]", lower case
}

func newOriginChecker(list []string) originChecker {
	oc := originChecker{allowed: map[string]bool{}}
	for _, o := range list {
		o = strings.TrimRight(strings.ToLower(strings.TrimSpace(o)), "/")
		switch o {
		case "":
		case "*":
			oc.any = true
		default:
			oc.allowed[o] = true
		}
	}
	return oc
}

// check allows requests without an Origin (non-browser clients), the same host as the
// request, and the configured origins.
func (oc originChecker) check(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || oc.any {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return oc.allowed[strings.ToLower(u.Scheme+"://"+u.Host)]
}

// ipExtractor returns how the client IP of a request is found. Without trusted proxies
// it is the connection's peer and X-Forwarded-For is ignored. With them, a request whose
// peer is a trusted proxy has its client IP taken from X-Forwarded-For, read from the
// right: the first address that is not a trusted proxy. Entries a client writes into the
// header itself stand left of what the proxies append, so they are never reached while
// an untrusted address (the client's real one) stands to their right.
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{
			IP: net.IP(p.Addr().AsSlice()), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen()),
		}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
