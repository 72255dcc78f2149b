package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Player store errors.
var (
	ErrNoSuchPlayer = errors.New("server: no such player")
	errBadName      = errors.New("server: bad name")
	// ErrNoSuchSession: the token is unknown, expired or revoked.
	ErrNoSuchSession = errors.New("server: no such session")
	// ErrUsernameTaken: another player holds the username (case-insensitively).
	ErrUsernameTaken = errors.New("server: username taken")
	// ErrAlreadyAccount: the player already has a username.
	ErrAlreadyAccount = errors.New("server: player already has an account")
)

const (
	tokenBytes   = 24 // 192 random bits
	maxNameRunes = 24
	// playerTTL is how long a guest, and any session, lives without being used.
	// Accounts do not expire.
	playerTTL = 400 * 24 * time.Hour
	// touchEvery bounds the writes of "last used": a session used again within it is
	// not rewritten.
	touchEvery = time.Minute
)

// Player is a person playing: a guest (Username "") or an account. Its ID is permanent
// (seats, games and ratings refer to it); it can hold several sessions (bearer tokens),
// each stored only as the hex SHA-256 of the token.
type Player struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Username string    `json:"username,omitempty"`
	Created  time.Time `json:"-"`
	// TokenHash is the session this Player was authenticated with ("" when loaded by id).
	TokenHash string `json:"-"`
}

// IsAccount reports whether the player has a username and password (else a guest).
func (p Player) IsAccount() bool { return p.Username != "" }

// PlayerSession is one bearer token of a player.
type PlayerSession struct {
	Hash      string // hex SHA-256 of the token: never sent to clients
	Created   time.Time
	LastUsed  time.Time
	UserAgent string
}

// PublicID names the session to its owner (listing, revoking) without revealing its hash.
func (s PlayerSession) PublicID() string { return sessionPublicID(s.Hash) }

func sessionPublicID(hash string) string {
	sum := sha256.Sum256([]byte("session-id:" + hash))
	return "s_" + base64.RawURLEncoding.EncodeToString(sum[:9])
}

// Players stores players, their sessions and their credentials.
type Players interface {
	// Create stores a new guest player and its first session.
	Create(ctx context.Context, p Player, s PlayerSession) error
	// ByHash returns the player of a session (ErrNoSuchSession) and notes its use.
	ByHash(ctx context.Context, tokenHash string) (Player, error)
	// ByID returns a player (ErrNoSuchPlayer); TokenHash is empty.
	ByID(ctx context.Context, id string) (Player, error)
	// Rename sets the display name of an existing player (ErrNoSuchPlayer if none).
	Rename(ctx context.Context, id, name string) error

	// AddSession gives an existing player one more session.
	AddSession(ctx context.Context, id string, s PlayerSession) error
	// Sessions lists a player's live sessions, oldest first.
	Sessions(ctx context.Context, id string) ([]PlayerSession, error)
	// Revoke ends the sessions of a player with the given hashes (unknown ones are ignored).
	Revoke(ctx context.Context, id string, hashes ...string) error

	// CreateAccount stores a new player that is an account from the start, with its
	// first session (ErrUsernameTaken, nothing written).
	CreateAccount(ctx context.Context, p Player, s PlayerSession, passwordHash string) error
	// Claim makes an existing guest an account: ErrUsernameTaken, ErrAlreadyAccount,
	// ErrNoSuchPlayer, nothing changed on error. The player stops expiring.
	Claim(ctx context.Context, id, username, passwordHash string) error
	// Credentials returns the player id and password hash of a username
	// (case-insensitive; ErrNoSuchPlayer).
	Credentials(ctx context.Context, username string) (id, passwordHash string, err error)
	// SetPassword replaces an account's password hash (ErrNoSuchPlayer).
	SetPassword(ctx context.Context, id, passwordHash string) error
}

// Redis layout (docs/persistence.md): the keys of one player share the hash tag
// {player:ID}; a session and a username are single keys looked up before the id is known.
func playerKey(id string) string         { return "gomoku:{player:" + id + "}" }
func playerSessionsKey(id string) string { return "gomoku:{player:" + id + "}:sessions" }
func sessionKey(hash string) string      { return "gomoku:session:" + hash }
func usernameKey(lower string) string    { return "gomoku:username:" + lower }

// redisPlayers keeps players in Redis.
type redisPlayers struct {
	c   redis.UniversalClient
	now func() time.Time
}

// NewRedisPlayers returns Players stored in Redis.
func NewRedisPlayers(c redis.UniversalClient) Players {
	return redisPlayers{c: c, now: time.Now}
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func fromMS(v string) time.Time {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n == 0 {
		return time.Time{}
	}
	return time.UnixMilli(n)
}

func (s redisPlayers) Create(ctx context.Context, p Player, sess PlayerSession) error {
	now := s.now()
	if p.Created.IsZero() {
		p.Created = now
	}
	pk := playerKey(p.ID)
	// The player's own keys first, the session key last: a token works only once its
	// player exists.
	_, err := s.c.TxPipelined(ctx, func(pl redis.Pipeliner) error {
		pl.HSet(ctx, pk, "id", p.ID, "name", p.Name, "created", ms(p.Created))
		pl.PExpire(ctx, pk, playerTTL)
		pl.SAdd(ctx, playerSessionsKey(p.ID), sess.Hash)
		pl.PExpire(ctx, playerSessionsKey(p.ID), playerTTL)
		return nil
	})
	if err != nil {
		return unavailable(err)
	}
	return s.putSession(ctx, p.ID, sess)
}

// putSession writes a session key (after its player's session set lists it).
func (s redisPlayers) putSession(ctx context.Context, id string, sess PlayerSession) error {
	now := s.now()
	if sess.Created.IsZero() {
		sess.Created = now
	}
	if sess.LastUsed.IsZero() {
		sess.LastUsed = sess.Created
	}
	sk := sessionKey(sess.Hash)
	_, err := s.c.TxPipelined(ctx, func(pl redis.Pipeliner) error {
		pl.HSet(ctx, sk, "player", id, "created", ms(sess.Created), "used", ms(sess.LastUsed), "ua", sess.UserAgent)
		pl.PExpire(ctx, sk, playerTTL)
		return nil
	})
	if err != nil {
		return unavailable(err)
	}
	return nil
}

// touchScript renews a player's keys after a use of one of its sessions: a guest's
// keys expire playerTTL after its last use, an account's never do.
var touchScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'username') == 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
end
return 1`)

func (s redisPlayers) ByHash(ctx context.Context, h string) (Player, error) {
	sk := sessionKey(h)
	vals, err := s.c.HMGet(ctx, sk, "player", "used").Result()
	if err != nil {
		return Player{}, unavailable(err)
	}
	id, _ := vals[0].(string)
	if id == "" {
		return Player{}, ErrNoSuchSession
	}
	p, err := s.ByID(ctx, id)
	if errors.Is(err, ErrNoSuchPlayer) {
		return Player{}, ErrNoSuchSession
	}
	if err != nil {
		return Player{}, err
	}
	p.TokenHash = h
	used, _ := vals[1].(string)
	if now := s.now(); now.Sub(fromMS(used)) >= touchEvery {
		// Best effort: a failed renewal only shortens an idle guest's life.
		_, _ = s.c.Pipelined(ctx, func(pl redis.Pipeliner) error {
			pl.HSet(ctx, sk, "used", ms(now))
			pl.PExpire(ctx, sk, playerTTL)
			return nil
		})
		_ = touchScript.Run(ctx, s.c, []string{playerKey(id), playerSessionsKey(id)}, playerTTL.Milliseconds()).Err()
	}
	return p, nil
}

func (s redisPlayers) ByID(ctx context.Context, id string) (Player, error) {
	vals, err := s.c.HMGet(ctx, playerKey(id), "id", "name", "username", "created").Result()
	if err != nil {
		return Player{}, unavailable(err)
	}
	got, _ := vals[0].(string)
	if got == "" {
		return Player{}, ErrNoSuchPlayer
	}
	name, _ := vals[1].(string)
	username, _ := vals[2].(string)
	created, _ := vals[3].(string)
	return Player{ID: got, Name: name, Username: username, Created: fromMS(created)}, nil
}

// renameScript sets the name of an existing player only: a player whose record
// expired in the meantime is not brought back without an id.
var renameScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1])
return 1`)

func (s redisPlayers) Rename(ctx context.Context, id, name string) error {
	n, err := renameScript.Run(ctx, s.c, []string{playerKey(id)}, name).Int()
	if err != nil {
		return unavailable(err)
	}
	if n == 0 {
		return ErrNoSuchPlayer
	}
	return nil
}

// addSessionScript lists a new session under an existing player (same hash tag);
// the player's TTL, if any, is renewed.
var addSessionScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
if redis.call('HEXISTS', KEYS[1], 'username') == 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
else
  redis.call('PERSIST', KEYS[2])
end
return 1`)

func (s redisPlayers) AddSession(ctx context.Context, id string, sess PlayerSession) error {
	n, err := addSessionScript.Run(ctx, s.c, []string{playerKey(id), playerSessionsKey(id)}, sess.Hash, playerTTL.Milliseconds()).Int()
	if err != nil {
		return unavailable(err)
	}
	if n == 0 {
		return ErrNoSuchPlayer
	}
	return s.putSession(ctx, id, sess)
}

func (s redisPlayers) Sessions(ctx context.Context, id string) ([]PlayerSession, error) {
	hashes, err := s.c.SMembers(ctx, playerSessionsKey(id)).Result()
	if err != nil {
		return nil, unavailable(err)
	}
	cmds := make([]*redis.SliceCmd, len(hashes))
	_, err = s.c.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i, h := range hashes {
			cmds[i] = pl.HMGet(ctx, sessionKey(h), "player", "created", "used", "ua")
		}
		return nil
	})
	if err != nil {
		return nil, unavailable(err)
	}
	var gone []string
	list := []PlayerSession{}
	for i, c := range cmds {
		v := c.Val()
		if owner, _ := v[0].(string); owner != id {
			gone = append(gone, hashes[i]) // expired (or never finished being written)
			continue
		}
		created, _ := v[1].(string)
		used, _ := v[2].(string)
		ua, _ := v[3].(string)
		list = append(list, PlayerSession{Hash: hashes[i], Created: fromMS(created), LastUsed: fromMS(used), UserAgent: ua})
	}
	if len(gone) > 0 {
		_ = s.c.SRem(ctx, playerSessionsKey(id), toAny(gone)...).Err() // tidy, best effort
	}
	sortSessions(list)
	return list, nil
}

func sortSessions(l []PlayerSession) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && l[j].Created.Before(l[j-1].Created); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// revokeScript deletes a session key only if it belongs to the player.
var revokeScript = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'player') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1`)

func (s redisPlayers) Revoke(ctx context.Context, id string, hashes ...string) error {
	if len(hashes) == 0 {
		return nil
	}
	// Session keys first (the tokens stop working), then the index.
	_, err := s.c.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for _, h := range hashes {
			revokeScript.Eval(ctx, pl, []string{sessionKey(h)}, id)
		}
		return nil
	})
	if err != nil {
		return unavailable(err)
	}
	if err := s.c.SRem(ctx, playerSessionsKey(id), toAny(hashes)...).Err(); err != nil {
		return unavailable(err)
	}
	return nil
}

// PlayerByID returns a player by id for handlers (player pages, ratings): an unknown id
// is the client error not_found.
func (s *Server) PlayerByID(ctx context.Context, id string) (Player, error) {
	p, err := s.players.ByID(ctx, id)
	if errors.Is(err, ErrNoSuchPlayer) {
		return Player{}, protocol.Errorf(protocol.CodeNotFound, "no such player")
	}
	return p, err
}
