package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"golang.org/x/crypto/argon2"
)

// Argon2Params are the argon2id cost parameters of new password hashes. A stored hash
// carries its own parameters (PHC string), so raising them later leaves old hashes
// verifiable.
type Argon2Params struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
}

// DefaultArgon2 is 32 MiB, 2 passes, one lane: above OWASP's minimum (19 MiB, 2
// passes), chosen to cost 50-100 ms of one core per hash on the reference machine
// (docs/performance.md, BenchmarkPasswordHash). Hashes run at most GOMAXPROCS at a time (memory and CPU stay
// bounded under a login flood) behind the login limiter.
var DefaultArgon2 = Argon2Params{MemoryKiB: 32 * 1024, Time: 2, Threads: 1}

const (
	saltBytes = 16
	keyBytes  = 32
)

var errBadPasswordHash = errors.New("server: malformed password hash")

// hashPassword returns the PHC string of an argon2id hash of password with a random salt:
// $argon2id$v=19$m=...,t=...,p=...$salt$key (raw base64).
func hashPassword(password string, p Argon2Params) string {
	salt := make([]byte, saltBytes)
	if _, err := rand.Read(salt); err != nil {
		panic("server: crypto/rand: " + err.Error())
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, keyBytes)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.MemoryKiB, p.Time, p.Threads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// checkPassword reports whether password matches the PHC string encoded (constant time
// in the key comparison).
func checkPassword(password, encoded string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return false, errBadPasswordHash
	}
	var v int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &v); err != nil || v != argon2.Version {
		return false, errBadPasswordHash
	}
	var p Argon2Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.MemoryKiB, &p.Time, &p.Threads); err != nil ||
		p.MemoryKiB == 0 || p.MemoryKiB > 1<<20 || p.Time == 0 || p.Time > 16 || p.Threads == 0 {
		return false, errBadPasswordHash
	}
	salt, err := base64.RawStdEncoding.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return false, errBadPasswordHash
	}
	key, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err != nil || len(key) < 16 || len(key) > 64 {
		return false, errBadPasswordHash
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.MemoryKiB, p.Threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// hasher runs password hashes at most n at a time: each takes MemoryKiB of memory and
// a core for tens of milliseconds, so a burst of logins queues instead of exhausting
// either. Waiting ends with the request's context.
type hasher struct {
	params Argon2Params
	slots  chan struct{}
	// done counts the argon2id computations (hashes and checks).
	done atomic.Int64
	// dummy is a hash of a random password: verifying against it when a username is
	// unknown costs what a real check costs, so timing does not tell them apart.
	dummy string
}

func newHasher(p Argon2Params, n int) *hasher {
	h := &hasher{params: p, slots: make(chan struct{}, n)}
	var b [16]byte
	_, _ = rand.Read(b[:])
	h.dummy = hashPassword(base64.RawStdEncoding.EncodeToString(b[:]), p)
	return h
}

func (h *hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// hash returns a new PHC hash of password.
func (h *hasher) hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer func() { <-h.slots }()
	h.done.Add(1)
	return hashPassword(password, h.params), nil
}

// check verifies password against encoded; encoded "" (no such account) is checked
// against the dummy hash and never matches.
func (h *hasher) check(ctx context.Context, password, encoded string) (bool, error) {
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer func() { <-h.slots }()
	h.done.Add(1)
	if encoded == "" {
		_, _ = checkPassword(password, h.dummy)
		return false, nil
	}
	return checkPassword(password, encoded)
}
