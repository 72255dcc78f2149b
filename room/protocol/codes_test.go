package protocol

import (
	"net/http"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHTTPStatus(t *testing.T) {
	for code, want := range map[string]int{
		CodeBadRequest:       http.StatusBadRequest,
		CodeTooLarge:         http.StatusRequestEntityTooLarge,
		CodeRateLimited:      http.StatusTooManyRequests,
		CodeUnauthorized:     http.StatusUnauthorized,
		CodeNotAllowed:       http.StatusForbidden,
		CodeStalePly:         http.StatusConflict,
		CodeNoSuchRoom:       http.StatusNotFound,
		CodeMethodNotAllowed: http.StatusMethodNotAllowed,
		CodeUnavailable:      http.StatusServiceUnavailable,
		CodeTimeout:          http.StatusGatewayTimeout,
		CodeInternal:         http.StatusInternalServerError,
		"no_such_code":       http.StatusInternalServerError,
	} {
		require.Equal(t, want, HTTPStatus(code), code)
	}
	require.False(t, KnownCode("no_such_code"))
	require.True(t, KnownCode(CodeHelloRequired))
}

// TestAccountHTTPStatus: every refusal of bad input on the account endpoints is 400,
// rate_limited included; other codes keep their status there.
func TestAccountHTTPStatus(t *testing.T) {
	for code, want := range map[string]int{
		CodeBadUsername:    http.StatusBadRequest,
		CodeWeakPassword:   http.StatusBadRequest,
		CodeUsernameTaken:  http.StatusBadRequest,
		CodeBadCredentials: http.StatusBadRequest,
		CodeRateLimited:    http.StatusBadRequest,
		CodeUnauthorized:   http.StatusUnauthorized,
		CodeConflict:       http.StatusConflict,
		CodeTooLarge:       http.StatusRequestEntityTooLarge,
		CodeUnavailable:    http.StatusServiceUnavailable,
	} {
		require.Equal(t, want, AccountHTTPStatus(code), code)
	}
	require.Equal(t, http.StatusTooManyRequests, HTTPStatus(CodeRateLimited), "elsewhere rate_limited stays 429")
}

// TestDocumentedCodes keeps section 6 of docs/protocol.md and the code table equal:
// every documented code with its status, and no code that is not documented.
func TestDocumentedCodes(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	require.NoError(t, err)
	rows := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| ([0-9]{3}) \\|").FindAllSubmatch(doc, -1)
	documented := map[string]int{}
	for _, r := range rows {
		status, _ := strconv.Atoi(string(r[2]))
		documented[string(r[1])] = status
	}
	require.Equal(t, statuses, documented)
}
