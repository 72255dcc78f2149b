package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

// accountRoutes adds the account and session endpoints (docs/protocol.md, section 2).
// Their refusals of bad input answer 400 (protocol.AccountHTTPStatus).
func (s *Server) accountRoutes(api *echo.Group) {
	api.POST("/accounts", s.createAccount, accountStatuses)
	api.PUT("/accounts/me/password", s.changePassword, accountStatuses)
	api.POST("/sessions", s.login, accountStatuses)
	api.Match(getHead, "/sessions", s.listSessions, accountStatuses)
	api.DELETE("/sessions/current", s.logout, accountStatuses)
	api.DELETE("/sessions/:id", s.revokeSession, accountStatuses)
}

// statusesKey holds, in an Echo context, the function giving its route's HTTP status
// of an error code (httpError; protocol.HTTPStatus when unset).
const statusesKey = "gomoku.statuses"

// accountStatuses makes the account endpoints answer with protocol.AccountHTTPStatus.
func accountStatuses(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(statusesKey, protocol.AccountHTTPStatus)
		return next(c)
	}
}

// httpStatus is the HTTP status of an error code on c's route.
func httpStatus(c echo.Context, code string) int {
	if f, ok := c.Get(statusesKey).(func(string) int); ok {
		return f(code)
	}
	return protocol.HTTPStatus(code)
}

// accountBody applies the per-IP limit of identity writes and reads a bounded body.
func (s *Server) accountBody(c echo.Context) ([]byte, error) {
	if !s.posts.allow(c.RealIP()) {
		return nil, protocol.Errorf(protocol.CodeRateLimited, "too many requests, slow down")
	}
	return readBody(c, maxAccountBody)
}

// credentialsBody reads a {username, password} body.
func (s *Server) credentialsBody(c echo.Context) (Credentials, error) {
	body, err := s.accountBody(c)
	if err != nil {
		return Credentials{}, err
	}
	return ParseCredentials(body)
}

// createdBody is the answer of a sign-up or a login.
func createdBody(p Player, token string) map[string]any {
	return map[string]any{"id": p.ID, "name": p.Name, "token": token, "username": p.Username}
}

// createAccount is POST /api/accounts {username, password}. With a guest's bearer
// token it turns that player into an account (same id, games and ratings; the token
// stays valid and is answered back); without one it creates a new player.
func (s *Server) createAccount(c echo.Context) error {
	ctx := c.Request().Context()
	var guest *Player
	token := ""
	if c.Request().Header.Get("Authorization") != "" {
		p, err := s.bearer(c)
		if err != nil {
			return err
		}
		if p.IsAccount() {
			return protocol.Errorf(protocol.CodeConflict, "this player already has an account: log in instead")
		}
		guest, token = &p, bearerToken(c)
	}
	req, err := s.credentialsBody(c)
	if err != nil {
		return err
	}
	if err := validUsername(req.Username); err != nil {
		return err
	}
	if err := validPassword(req.Password, req.Username); err != nil {
		return err
	}
	pw, err := s.hasher.hash(ctx, req.Password)
	if err != nil {
		return err
	}
	var p Player
	if guest != nil {
		err = s.players.Claim(ctx, guest.ID, req.Username, pw)
		p = *guest
		p.Username = req.Username
	} else {
		var hash, id string
		token, hash, id = newToken()
		p = Player{ID: id, Name: req.Username, Username: req.Username}
		err = s.players.CreateAccount(ctx, p, newSession(hash, c.Request().UserAgent()), pw)
	}
	switch {
	case errors.Is(err, ErrUsernameTaken):
		return protocol.Errorf(protocol.CodeUsernameTaken, "this username is taken")
	case errors.Is(err, ErrAlreadyAccount):
		return protocol.Errorf(protocol.CodeConflict, "this player already has an account: log in instead")
	case errors.Is(err, ErrNoSuchPlayer):
		return protocol.Errorf(protocol.CodeUnauthorized, "unknown token")
	case err != nil:
		return err
	}
	if guest != nil {
		s.keepGames(ctx, p.ID)
	}
	s.log.Info("account created", "player", p.ID, "upgraded_guest", guest != nil)
	return c.JSON(http.StatusCreated, createdBody(p, token))
}

// login is POST /api/sessions {username, password}: a new session of the account.
func (s *Server) login(c echo.Context) error {
	ctx := c.Request().Context()
	req, err := s.credentialsBody(c)
	if err != nil {
		return err
	}
	username := req.Username
	if len(username) > maxUsername || len(req.Password) > 4*maxPassword {
		username = "" // cannot exist: limited per address only, checked against the dummy
	}
	id, err := s.verify(c, username, req.Password)
	if err != nil {
		return err
	}
	token, hash, _ := newToken()
	if err := s.players.AddSession(ctx, id, newSession(hash, c.Request().UserAgent())); err != nil {
		if errors.Is(err, ErrNoSuchPlayer) {
			return errBadCredentials
		}
		return err
	}
	p, err := s.players.ByID(ctx, id)
	if err != nil {
		return err
	}
	s.keepGames(ctx, p.ID)
	return c.JSON(http.StatusCreated, createdBody(p, token))
}

// keepGames makes an account's games and ratings in the ledger permanent (a guest's
// expire with it). After an upgrade the account exists already, so a failure is
// logged, not answered; every login does it again (idempotent), so an upgrade whose
// node died before this step is completed by the account's next login.
func (s *Server) keepGames(ctx context.Context, id string) {
	if s.deps.Ledger == nil {
		return
	}
	if err := s.deps.Ledger.Keep(ctx, id); err != nil {
		s.log.Warn("keeping an account's games", "player", id, "err", err)
	}
}

// verify checks a password attempt for username ("" when it cannot be an account):
// through the limiter, then against the stored hash, or a dummy one when there is none,
// so that unknown usernames and wrong passwords take the same work and get the same
// answer. It returns the player id.
func (s *Server) verify(c echo.Context, username, password string) (string, error) {
	ctx := c.Request().Context()
	if err := s.limitLogin(c, username); err != nil {
		return "", err
	}
	id, pw := "", ""
	if username != "" {
		var err error
		id, pw, err = s.players.Credentials(ctx, username)
		if err != nil && !errors.Is(err, ErrNoSuchPlayer) {
			return "", err
		}
	}
	ok, err := s.hasher.check(ctx, password, pw)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errBadCredentials
	}
	s.limiter.succeeded(ctx, username)
	return id, nil
}

// limitLogin counts a password attempt for username ("" when it cannot be an account)
// from the client's address; refused attempts are rate_limited with Retry-After.
func (s *Server) limitLogin(c echo.Context, username string) error {
	wait, err := s.limiter.attempt(c.Request().Context(), username, c.RealIP())
	if err != nil {
		return err
	}
	if wait > 0 {
		secs := int((wait + time.Second - 1) / time.Second)
		c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
		return protocol.Errorf(protocol.CodeRateLimited, "too many login attempts: try again in %d s", secs)
	}
	return nil
}

// changePassword is PUT /api/accounts/me/password {current_password, new_password}:
// the account's other sessions are revoked (this one stays).
func (s *Server) changePassword(c echo.Context) error {
	ctx := c.Request().Context()
	p, err := s.bearer(c)
	if err != nil {
		return err
	}
	if !p.IsAccount() {
		return protocol.Errorf(protocol.CodeNotAllowed, "a guest has no password: create an account with POST /api/accounts")
	}
	body, err := s.accountBody(c)
	if err != nil {
		return err
	}
	req, err := ParsePasswordChange(body)
	if err != nil {
		return err
	}
	if err := validPassword(req.New, p.Username); err != nil {
		return err
	}
	if _, err := s.verify(c, p.Username, req.Current); err != nil {
		return err
	}
	newPW, err := s.hasher.hash(ctx, req.New)
	if err != nil {
		return err
	}
	if err := s.players.SetPassword(ctx, p.ID, newPW); err != nil {
		return err
	}
	sessions, err := s.players.Sessions(ctx, p.ID)
	if err != nil {
		return err
	}
	var others []string
	for _, ss := range sessions {
		if ss.Hash != p.TokenHash {
			others = append(others, ss.Hash)
		}
	}
	if err := s.players.Revoke(ctx, p.ID, others...); err != nil {
		return err
	}
	s.log.Info("password changed", "player", p.ID, "sessions_revoked", len(others))
	return c.NoContent(http.StatusNoContent)
}

// SessionInfo is one entry of GET /api/sessions.
type SessionInfo struct {
	ID        string `json:"id"`
	Created   int64  `json:"created_ms"`
	LastUsed  int64  `json:"last_used_ms"`
	UserAgent string `json:"user_agent"`
	Current   bool   `json:"current"`
}

func (s *Server) listSessions(c echo.Context) error {
	p, err := s.bearer(c)
	if err != nil {
		return err
	}
	list, err := s.players.Sessions(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	out := make([]SessionInfo, 0, len(list))
	for _, ss := range list {
		out = append(out, SessionInfo{ID: ss.PublicID(), Created: ss.Created.UnixMilli(), LastUsed: ss.LastUsed.UnixMilli(),
			UserAgent: ss.UserAgent, Current: ss.Hash == p.TokenHash})
	}
	return c.JSON(http.StatusOK, map[string]any{"sessions": out})
}

// logout is DELETE /api/sessions/current: the token stops working.
func (s *Server) logout(c echo.Context) error {
	p, err := s.bearer(c)
	if err != nil {
		return err
	}
	if err := s.players.Revoke(c.Request().Context(), p.ID, p.TokenHash); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// revokeSession is DELETE /api/sessions/:id (an id from GET /api/sessions).
func (s *Server) revokeSession(c echo.Context) error {
	p, err := s.bearer(c)
	if err != nil {
		return err
	}
	id := c.Param("id")
	list, err := s.players.Sessions(c.Request().Context(), p.ID)
	if err != nil {
		return err
	}
	for _, ss := range list {
		if ss.PublicID() == id {
			if err := s.players.Revoke(c.Request().Context(), p.ID, ss.Hash); err != nil {
				return err
			}
			return c.NoContent(http.StatusNoContent)
		}
	}
	return protocol.Errorf(protocol.CodeNotFound, "no such session")
}

// bearerToken is the raw token of the Authorization header (bearer checked it).
func bearerToken(c echo.Context) string {
	tok, _ := strings.CutPrefix(c.Request().Header.Get("Authorization"), "Bearer ")
	return strings.TrimSpace(tok)
}
