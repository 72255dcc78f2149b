package protocol

import "net/http"

// Stable error codes (docs/protocol.md, section 6). Clients switch on these; never
// rename one.
const (
	CodeBadRequest       = "bad_request"
	CodeBadJSON          = "bad_json"
	CodeUnknownType      = "unknown_type"
	CodeTooLarge         = "too_large"
	CodeRateLimited      = "rate_limited"
	CodeTooManyConns     = "too_many_connections"
	CodeUnauthorized     = "unauthorized"
	CodeBadOrigin        = "bad_origin"
	CodeNotAPlayer       = "not_a_player"
	CodeNotAllowed       = "not_allowed"
	CodeAccountRequired  = "account_required"
	CodeNotYourTurn      = "not_your_turn"
	CodeOffBoard         = "off_board"
	CodeOccupied         = "occupied"
	CodeForbidden        = "forbidden"
	CodeStalePly         = "stale_ply"
	CodeGameOver         = "game_over"
	CodeGameNotStarted   = "game_not_started"
	CodeSeatTaken        = "seat_taken"
	CodeNoPendingOffer   = "no_pending_offer"
	CodeConflict         = "conflict"
	CodeNoSuchRoom       = "no_such_room"
	CodeNoSuchGame       = "no_such_game"
	CodeNotFound         = "not_found"
	CodeMethodNotAllowed = "method_not_allowed"
	CodeNoSuchEngine     = "no_such_engine"
	CodeHelloRequired    = "hello_required"
	CodeAIBusy           = "ai_busy"
	CodeLearnBusy        = "learn_busy"
	CodeAnalysisBusy     = "analysis_busy"
	CodeAnalysisLimit    = "analysis_limit"
	CodeGameNotOver      = "game_not_over"
	CodeNoSuchPuzzle     = "no_such_puzzle"
	CodeNoSuchAttempt    = "no_such_attempt"
	CodeAttemptOver      = "attempt_over"
	CodeBadMove          = "bad_move"
	CodePuzzleBusy       = "puzzle_busy"
	CodeUnavailable      = "unavailable"
	CodeShuttingDown     = "shutting_down"
	CodeTimeout          = "timeout"
	CodeInternal         = "internal"

	// Accounts (HTTP only). Login failures are bad_credentials whether the username
	// exists or not.
	CodeBadUsername    = "bad_username"
	CodeWeakPassword   = "weak_password"
	CodeUsernameTaken  = "username_taken"
	CodeBadCredentials = "bad_credentials"
)

// statuses maps every code to its HTTP status; it is also the list of known codes.
var statuses = map[string]int{
	CodeBadRequest:       http.StatusBadRequest,
	CodeBadJSON:          http.StatusBadRequest,
	CodeUnknownType:      http.StatusBadRequest,
	CodeTooLarge:         http.StatusRequestEntityTooLarge,
	CodeRateLimited:      http.StatusTooManyRequests,
	CodeTooManyConns:     http.StatusTooManyRequests,
	CodeUnauthorized:     http.StatusUnauthorized,
	CodeBadOrigin:        http.StatusForbidden,
	CodeNotAPlayer:       http.StatusForbidden,
	CodeNotAllowed:       http.StatusForbidden,
	CodeAccountRequired:  http.StatusForbidden,
	CodeNotYourTurn:      http.StatusConflict,
	CodeOffBoard:         http.StatusBadRequest,
	CodeOccupied:         http.StatusBadRequest,
	CodeForbidden:        http.StatusBadRequest,
	CodeStalePly:         http.StatusConflict,
	CodeGameOver:         http.StatusConflict,
	CodeGameNotStarted:   http.StatusConflict,
	CodeSeatTaken:        http.StatusConflict,
	CodeNoPendingOffer:   http.StatusConflict,
	CodeConflict:         http.StatusConflict,
	CodeNoSuchRoom:       http.StatusNotFound,
	CodeNoSuchGame:       http.StatusNotFound,
	CodeNotFound:         http.StatusNotFound,
	CodeMethodNotAllowed: http.StatusMethodNotAllowed,
	CodeNoSuchEngine:     http.StatusBadRequest,
	CodeHelloRequired:    http.StatusBadRequest,
	CodeAIBusy:           http.StatusServiceUnavailable,
	CodeLearnBusy:        http.StatusServiceUnavailable,
	CodeAnalysisBusy:     http.StatusServiceUnavailable,
	CodeAnalysisLimit:    http.StatusTooManyRequests,
	CodeGameNotOver:      http.StatusConflict,
	CodeNoSuchPuzzle:     http.StatusNotFound,
	CodeNoSuchAttempt:    http.StatusNotFound,
	CodeAttemptOver:      http.StatusConflict,
	CodeBadMove:          http.StatusBadRequest,
	CodePuzzleBusy:       http.StatusTooManyRequests,
	CodeUnavailable:      http.StatusServiceUnavailable,
	CodeShuttingDown:     http.StatusServiceUnavailable,
	CodeTimeout:          http.StatusGatewayTimeout,
	CodeInternal:         http.StatusInternalServerError,
	CodeBadUsername:      http.StatusBadRequest,
	CodeWeakPassword:     http.StatusBadRequest,
	CodeUsernameTaken:    http.StatusBadRequest,
	CodeBadCredentials:   http.StatusBadRequest,
}

// accountRefusals are the refusals of bad input on the account endpoints (sign-up,
// login, password change): each answers 400 there, whatever its status elsewhere
// (rate_limited is 429 on the other routes; on a login it keeps its Retry-After).
var accountRefusals = map[string]bool{
	CodeBadUsername: true, CodeWeakPassword: true, CodeUsernameTaken: true,
	CodeBadCredentials: true, CodeRateLimited: true,
}

// HTTPStatus returns the HTTP status of code (500 for a code that is not one of the
// constants above).
func HTTPStatus(code string) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// AccountHTTPStatus returns the HTTP status of code on the account endpoints
// (/api/accounts…, /api/sessions…): 400 for the account refusals, else HTTPStatus.
func AccountHTTPStatus(code string) int {
	if accountRefusals[code] {
		return http.StatusBadRequest
	}
	return HTTPStatus(code)
}

// KnownCode reports whether code is one of the protocol's codes (metrics label only
// these, which bounds their cardinality).
func KnownCode(code string) bool {
	_, ok := statuses[code]
	return ok
}
