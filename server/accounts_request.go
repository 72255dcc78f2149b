package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// maxAccountBody bounds the bodies of the account endpoints.
const maxAccountBody = 2048

const (
	minUsername, maxUsername = 3, 20
	minPassword, maxPassword = 8, 128 // characters
)

// reservedUsernames are refused (compared lower-case): names that would pass for the
// site, its staff, its machines or its routes. The AI levels' names are added at init.
var reservedUsernames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`admin administrator root system sysop api www ai bot robot
		engine computer guest guests anonymous anon nobody null nil undefined me you self
		moderator mod mods staff support help official gomoku gomokud arena server
		account accounts session sessions login logout signin signup register player players
		room rooms lobby learn static ws healthz readyz metrics current`) {
		reservedUsernames[w] = true
	}
	for _, l := range engine.Levels() {
		reservedUsernames[strings.ToLower(l.Name)] = true
	}
}

// commonPasswords are refused outright (the most used passwords of 8+ characters).
var commonPasswords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`password password1 password123 12345678 123456789
		1234567890 123123123 11111111 00000000 87654321 qwertyui qwerty123 qwertyuiop
		1q2w3e4r 1qaz2wsx zaq12wsx iloveyou sunshine princess football baseball welcome
		abc12345 abcd1234 letmein1 trustno1 superman starwars passw0rd gomoku123 wuziqi123`) {
		commonPasswords[w] = true
	}
}

var (
	errBadUsername = protocol.Errorf(protocol.CodeBadUsername,
		"username must be %d-%d characters of A-Z a-z 0-9 _ - and not a reserved word", minUsername, maxUsername)
	errBadCredentials = protocol.Errorf(protocol.CodeBadCredentials, "wrong username or password")
)

// validUsername checks the username rules (the case is kept as typed; uniqueness
// ignores it).
func validUsername(u string) error {
	if len(u) < minUsername || len(u) > maxUsername {
		return errBadUsername
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return errBadUsername
		}
	}
	if reservedUsernames[strings.ToLower(u)] {
		return errBadUsername
	}
	return nil
}

// validPassword checks the password rules: length, not the username, not one
// repeated character, not a well-known password.
func validPassword(pw, username string) error {
	weak := func(why string) error {
		return protocol.Errorf(protocol.CodeWeakPassword, "password %s", why)
	}
	if !utf8.ValidString(pw) {
		return weak("must be valid text")
	}
	n := utf8.RuneCountInString(pw)
	if n < minPassword || n > maxPassword {
		return weak("must be 8-128 characters")
	}
	lower := strings.ToLower(pw)
	if username != "" && strings.Contains(lower, strings.ToLower(username)) {
		return weak("must not contain the username")
	}
	first, size := utf8.DecodeRuneInString(pw)
	if strings.Count(pw, string(first))*size == len(pw) {
		return weak("must not be one repeated character")
	}
	if commonPasswords[lower] {
		return weak("is too common")
	}
	return nil
}

// Credentials is the body of POST /api/accounts and POST /api/sessions.
type Credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// PasswordChange is the body of PUT /api/accounts/me/password.
type PasswordChange struct {
	Current string `json:"current_password"`
	New     string `json:"new_password"`
}

// decodeStrict decodes one JSON object of at most maxAccountBody bytes into v; unknown
// fields and trailing data are bad_json.
func decodeStrict(body []byte, v any, shape string) error {
	if len(body) > maxAccountBody {
		return protocol.Errorf(protocol.CodeTooLarge, "body larger than %d bytes", maxAccountBody)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return protocol.Errorf(protocol.CodeBadJSON, "body must be %s", shape)
	}
	if dec.More() {
		return protocol.Errorf(protocol.CodeBadJSON, "trailing data after the JSON object")
	}
	return nil
}

// ParseCredentials decodes a credentials body. The rules of usernames and passwords
// are checked by the caller (sign-up checks them all; login only bounds the sizes,
// answering bad_credentials for anything else).
func ParseCredentials(body []byte) (Credentials, error) {
	var c Credentials
	if err := decodeStrict(body, &c, `{"username": "...", "password": "..."}`); err != nil {
		return Credentials{}, err
	}
	return c, nil
}

// ParsePasswordChange decodes a password-change body.
func ParsePasswordChange(body []byte) (PasswordChange, error) {
	var c PasswordChange
	if err := decodeStrict(body, &c, `{"current_password": "...", "new_password": "..."}`); err != nil {
		return PasswordChange{}, err
	}
	return c, nil
}
