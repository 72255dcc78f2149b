package server

import (
	"context"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// LoginRule is the growing delay of one login limiter key: the first Free attempts
// within Forget of each other pass at once; attempt Free+k (k >= 1) passes and then
// locks the key for Base·2^(k-1), at most Max. A success clears an account's count
// (an address's count only fades after Forget without attempts, so an attacker cannot
// reset it by logging into an account of their own between guesses).
type LoginRule struct {
	Free      int
	Base, Max time.Duration
	Forget    time.Duration
}

// delay is the lock that follows the n-th attempt (1-based).
func (r LoginRule) delay(n int) time.Duration {
	k := n - r.Free
	if k <= 0 {
		return 0
	}
	d := r.Base
	for i := 1; i < k && d < r.Max; i++ {
		d *= 2
	}
	return min(d, r.Max)
}

// Default login rules: five tries per account, then 1 s, 2 s, 4 s ... up to 15 min
// between tries (a guessing attack gets a few hundred tries a day); twenty per address,
// so a shared address (a school, a NAT) is not locked by one person's typos.
var (
	DefaultAccountRule = LoginRule{Free: 5, Base: time.Second, Max: 15 * time.Minute, Forget: 24 * time.Hour}
	DefaultAddressRule = LoginRule{Free: 20, Base: time.Second, Max: 15 * time.Minute, Forget: 24 * time.Hour}
)

// LoginLimiter counts login attempts per account and per client address in Redis, so
// the limit holds across nodes. Every attempt counts when it starts (not when it
// fails), so parallel guesses cannot slip through before the first failure is stored.
type LoginLimiter struct {
	c             redis.UniversalClient
	now           func() time.Time
	account, addr LoginRule
}

// NewLoginLimiter returns a limiter with the default rules keeping its counts in c;
// now is its clock (time.Now in production).
func NewLoginLimiter(c redis.UniversalClient, now func() time.Time) *LoginLimiter {
	return &LoginLimiter{c: c, now: now, account: DefaultAccountRule, addr: DefaultAddressRule}
}

func loginAccountKey(username string) string {
	return "gomoku:login:account:" + strings.ToLower(username)
}
func loginAddrKey(ip string) string { return "gomoku:login:addr:" + ip }

// attemptScript: KEYS[1] the counter hash {n, until}; ARGV now ms, free, forget ms, then
// the delays in ms after attempts free+1, free+2, ... (the last one repeats). Answers 0
// (go ahead, counted) or the ms left before the key allows another attempt.
var attemptScript = redis.NewScript(`
local now = tonumber(ARGV[1])
local untilMS = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if untilMS > now then return untilMS - now end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
local k = n - tonumber(ARGV[2])
if k > 0 then
  local i = math.min(k, #ARGV - 3)
  redis.call('HSET', KEYS[1], 'until', now + tonumber(ARGV[3 + i]))
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 0`)

// delays lists r's delays for the script, up to the first that reaches Max.
func (r LoginRule) delays() []any {
	var out []any
	for n := r.Free + 1; ; n++ {
		d := r.delay(n)
		out = append(out, d.Milliseconds())
		if d >= r.Max {
			return out
		}
	}
}

func (l *LoginLimiter) attemptKey(ctx context.Context, key string, r LoginRule, now time.Time) (time.Duration, error) {
	args := append([]any{now.UnixMilli(), r.Free, r.Forget.Milliseconds()}, r.delays()...)
	wait, err := attemptScript.Run(ctx, l.c, []string{key}, args...).Int64()
	if err != nil {
		return 0, unavailable(err)
	}
	return time.Duration(wait) * time.Millisecond, nil
}

// attempt counts a login attempt for username ("": none that can exist) from ip. A positive wait means refused:
// try again after it. The address is checked first, so a locked address does not
// count against the account it tries.
func (l *LoginLimiter) attempt(ctx context.Context, username, ip string) (time.Duration, error) {
	now := l.now()
	if wait, err := l.attemptKey(ctx, loginAddrKey(ip), l.addr, now); err != nil || wait > 0 || username == "" {
		return wait, err
	}
	return l.attemptKey(ctx, loginAccountKey(username), l.account, now)
}

// succeeded clears the account's count.
func (l *LoginLimiter) succeeded(ctx context.Context, username string) {
	if username == "" {
		return
	}
	_ = l.c.Del(ctx, loginAccountKey(username)).Err() // best effort: the count fades anyway
}
