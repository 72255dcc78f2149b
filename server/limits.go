package server

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
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

// clientIP returns the request's client IP: the connection's peer, or with trustProxy the
// first X-Forwarded-For entry (else X-Real-IP).
func clientIP(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			first, _, _ := strings.Cut(xff, ",")
			if ip := net.ParseIP(strings.TrimSpace(first)); ip != nil {
				return ip.String()
			}
		}
		if ip := net.ParseIP(strings.TrimSpace(r.Header.Get("X-Real-IP"))); ip != nil {
			return ip.String()
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
