package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodePuzzleMove(t *testing.T) {
	tests := []struct {
		body string
		want string
		code string
	}{
		{`{"move":"h8"}`, "h8", ""},
		{`{"move":" O15 "}`, "o15", ""},
		{`{"move":"h"}`, "", CodeBadMove},
		{`{"move":"h8i9"}`, "", CodeBadMove},
		{`{"move":""}`, "", CodeBadMove},
		{`{}`, "", CodeBadMove},
		{`{"move":8}`, "", CodeBadJSON},
		{`{"move":"h8","x":1}`, "", CodeBadJSON},
		{`{"move":"h8"} {}`, "", CodeBadJSON},
		{`not json`, "", CodeBadJSON},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			r, err := DecodePuzzleMove([]byte(tt.body))
			if tt.code != "" {
				require.Error(t, err)
				assert.Equal(t, tt.code, Code(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, r.Move)
		})
	}
}

func TestValidPuzzleID(t *testing.T) {
	for id, ok := range map[string]bool{"vcf-001": true, "m0a1b2c3d4e5f": true, "": false, "a/b": false,
		"a:b": false, "{x}": false, string(make([]byte, 65)): false} {
		assert.Equal(t, ok, ValidPuzzleID(id), id)
	}
}

// FuzzDecodePuzzleMove: any body is decoded or refused with a stable code, and a
// decoded move is a short lowercase point.
func FuzzDecodePuzzleMove(f *testing.F) {
	for _, s := range []string{`{"move":"h8"}`, `{"move":"H15"}`, `{}`, `[]`, `{"move":null}`, `{"move":"h8"}x`, "\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodePuzzleMove(data)
		if err != nil {
			require.Contains(t, []string{CodeBadJSON, CodeBadMove}, Code(err))
			return
		}
		require.Regexp(t, `^[a-z][0-9]{1,2}$`, r.Move)
	})
}

// FuzzValidPuzzleID: an accepted id is a short path segment without the characters
// that would break a Redis key's hash tag or grammar.
func FuzzValidPuzzleID(f *testing.F) {
	for _, s := range []string{"vcf-001", "mined-0123456789ab", "", "a/b", "{x}", "a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidPuzzleID(s) {
			require.LessOrEqual(t, len(s), 64)
			require.NotContains(t, s, "/")
			require.NotContains(t, s, "{")
			require.NotContains(t, s, ":")
			require.NotContains(t, s, " ")
		}
	})
}
