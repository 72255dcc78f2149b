package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/room/protocol"
)

func TestValidUsername(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"abc", true}, {"A-b_9", true}, {strings.Repeat("z", 20), true},
		{"ab", false}, {strings.Repeat("z", 21), false}, {"a.b", false}, {"a b", false},
		{"élan", false}, {"", false}, {"ADMIN", false}, {"Guest", false}, {"ai", false},
		{"anonymous", false}, {"Beginner", false}, {"admin1", true},
	} {
		err := validUsername(tc.in)
		if tc.ok {
			require.NoError(t, err, tc.in)
		} else {
			require.Equal(t, protocol.CodeBadUsername, protocol.Code(err), tc.in)
		}
	}
}

func TestValidPassword(t *testing.T) {
	for _, tc := range []struct {
		pw, user string
		ok       bool
	}{
		{"tulip-sky-42", "ann", true}, {"八个汉字的密码呀", "ann", true}, {strings.Repeat("ab", 64), "", true},
		{"seven77", "", false}, {strings.Repeat("ab", 64) + "c", "", false}, {"xxAnnxxxx", "ann", false},
		{"ééééééééé", "", false}, {"PASSWORD1", "", false}, {"abc\xffdefgh", "", false},
	} {
		err := validPassword(tc.pw, tc.user)
		if tc.ok {
			require.NoError(t, err, tc.pw)
		} else {
			require.Equal(t, protocol.CodeWeakPassword, protocol.Code(err), tc.pw)
		}
	}
}

// FuzzParseCredentials: any body is either decoded or refused with a protocol code;
// a decoded body re-encodes to an equal value.
func FuzzParseCredentials(f *testing.F) {
	for _, s := range []string{`{"username":"ann","password":"tulip-sky-42"}`, `{}`, `{"username":null}`,
		`{"username":"a","password":"b","x":1}`, `[]`, `{"username":"\u0000"}`, `{"username":"a"} {}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := ParseCredentials(body)
		if err != nil {
			require.True(t, protocol.KnownCode(protocol.Code(err)), "%v", err)
			require.Equal(t, Credentials{}, c)
			return
		}
		j, err := json.Marshal(c)
		require.NoError(t, err)
		again, err := ParseCredentials(j)
		require.NoError(t, err)
		require.Equal(t, c, again)
		// The rules never panic and answer their own codes.
		if err := validUsername(c.Username); err != nil {
			require.Equal(t, protocol.CodeBadUsername, protocol.Code(err))
		}
		if err := validPassword(c.Password, c.Username); err != nil {
			require.Equal(t, protocol.CodeWeakPassword, protocol.Code(err))
		}
	})
}

func FuzzParsePasswordChange(f *testing.F) {
	for _, s := range []string{`{"current_password":"a","new_password":"b"}`, `{}`, `{"new_password":1}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, err := ParsePasswordChange(body)
		if err != nil {
			require.True(t, protocol.KnownCode(protocol.Code(err)), "%v", err)
			require.Equal(t, PasswordChange{}, c)
			return
		}
		j, err := json.Marshal(c)
		require.NoError(t, err)
		again, err := ParsePasswordChange(j)
		require.NoError(t, err)
		require.Equal(t, c, again)
	})
}
