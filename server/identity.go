package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// HashToken returns the hex SHA-256 of a raw token: the only form that is ever stored.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// newToken returns a random base64url token and its player id (derived from the hash, so
// it reveals nothing about the token).
func newToken() (token, hash, id string) {
	var b [tokenBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("server: crypto/rand: " + err.Error())
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	hash = HashToken(token)
	sum := sha256.Sum256([]byte("player-id:" + hash))
	id = "p_" + base64.RawURLEncoding.EncodeToString(sum[:9])
	return token, hash, id
}

// CleanName validates and normalises a display name: 1-24 printable characters after
// trimming; inner whitespace collapsed.
func CleanName(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", errBadName
	}
	s = strings.Join(strings.Fields(s), " ")
	n := utf8.RuneCountInString(s)
	if n == 0 || n > maxNameRunes {
		return "", errBadName
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return "", errBadName
		}
	}
	return s, nil
}

func unavailable(err error) error {
	return fmt.Errorf("%w: %w", protocol.Errorf(protocol.CodeUnavailable, "store unavailable, try again"), err)
}

// validName is CleanName with the error the client is told.
func validName(name string) (string, error) {
	name, err := CleanName(name)
	if err != nil {
		return "", protocol.Errorf(protocol.CodeBadRequest, `"name" must be 1-%d printable characters`, maxNameRunes)
	}
	return name, nil
}

// maxUserAgent bounds the user agent kept with a session (shown in the sessions list).
const maxUserAgent = 200

// newSession returns a fresh session for a request's user agent.
func newSession(hash, userAgent string) PlayerSession {
	ua := strings.ToValidUTF8(userAgent, "")
	if len(ua) > maxUserAgent {
		ua = strings.ToValidUTF8(ua[:maxUserAgent], "")
	}
	return PlayerSession{Hash: hash, UserAgent: ua}
}

// register creates a guest player with a fresh token.
func register(ctx context.Context, ps Players, name, userAgent string) (Player, string, error) {
	name, err := validName(name)
	if err != nil {
		return Player{}, "", err
	}
	token, hash, id := newToken()
	p := Player{ID: id, Name: name, TokenHash: hash}
	if err := ps.Create(ctx, p, newSession(hash, userAgent)); err != nil {
		return Player{}, "", err
	}
	return p, token, nil
}

// rename changes p's display name. Seats already taken keep the name they were taken
// with (the game's events and records name the players as they sat); seats taken from
// now on, and the player's own page, use the new one.
func rename(ctx context.Context, ps Players, p Player, name string) (Player, error) {
	name, err := validName(name)
	if err != nil {
		return p, err
	}
	if err := ps.Rename(ctx, p.ID, name); err != nil {
		if errors.Is(err, ErrNoSuchPlayer) {
			return p, protocol.Errorf(protocol.CodeUnauthorized, "unknown token: register with POST /api/players")
		}
		return p, err
	}
	p.Name = name
	return p, nil
}

// authenticate resolves a raw token. An empty token yields (nil, nil): a spectator.
func authenticate(ctx context.Context, ps Players, token string) (*Player, error) {
	if token == "" {
		return nil, nil
	}
	if len(token) > protocol.MaxTokenLen {
		return nil, protocol.Errorf(protocol.CodeUnauthorized, "unknown token")
	}
	p, err := ps.ByHash(ctx, HashToken(token))
	if errors.Is(err, ErrNoSuchSession) {
		return nil, protocol.Errorf(protocol.CodeUnauthorized, "unknown token: register with POST /api/players")
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}
