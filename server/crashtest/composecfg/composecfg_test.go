package composecfg

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnescape(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		err      bool
	}{
		{"", "", false},
		{"no dollars", "no dollars", false},
		{"{$$VAR:x}", "{$VAR:x}", false},
		{"$$$$", "$$", false},
		{"a\n{$VAR}", "", true},
		{"${VAR}", "", true},
		{"trailing $", "", true},
		{"$$$", "", true},
	} {
		got, err := Unescape(tc.in)
		if tc.err {
			assert.ErrorIs(t, err, ErrInterpolated, "%q", tc.in)
			continue
		}
		require.NoError(t, err, "%q", tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
	}
}

func FuzzUnescape(f *testing.F) {
	f.Add("{$$VAR:a b}")
	f.Add("$")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Unescape(s)
		if err != nil {
			return
		}
		// Escaping the result again gives back the input.
		assert.Equal(t, s, strings.ReplaceAll(got, "$", "$$"))
	})
}

const sample = `
services:
  lb:
    image: caddy:2
    configs:
      - source: caddyfile
        target: /etc/caddy/Caddyfile
      - short
  web:
    image: nginx
configs:
  caddyfile:
    content: |
      {
      	admin off
      }
      http://{$$ADDR::8080} {
      	respond ok
      }
  short:
    content: "x"
  filed:
    file: ./x
  bad:
    content: "$HOME"
`

func TestMounted(t *testing.T) {
	name, text, err := Mounted([]byte(sample), "lb", "/etc/caddy/Caddyfile")
	require.NoError(t, err)
	assert.Equal(t, "caddyfile", name)
	assert.Equal(t, "{\n\tadmin off\n}\nhttp://{$ADDR::8080} {\n\trespond ok\n}\n", text)
	c, err := Caddyfile([]byte(sample))
	require.NoError(t, err)
	assert.Equal(t, text, c)
	name, text, err = Mounted([]byte(sample), "lb", "/short")
	require.NoError(t, err)
	assert.Equal(t, "short", name)
	assert.Equal(t, "x", text)
	_, _, err = Mounted([]byte(sample), "web", "/etc/caddy/Caddyfile")
	assert.ErrorIs(t, err, ErrNoConfig)
	_, _, err = Mounted([]byte(sample), "nope", "/x")
	assert.Error(t, err)
	_, err = Content([]byte(sample), "filed")
	assert.ErrorIs(t, err, ErrNoConfig)
	_, err = Content([]byte(sample), "bad")
	assert.ErrorIs(t, err, ErrInterpolated)
}

// TestRepositoryCompose: the repository's docker-compose.yml carries the Caddyfile.
func TestRepositoryCompose(t *testing.T) {
	p, err := WriteCaddyfile("../../../docker-compose.yml", t.TempDir())
	require.NoError(t, err)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Contains(t, string(b), "reverse_proxy {$GOMOKU_UPSTREAMS:")
	assert.Contains(t, string(b), "\thandle /ws/* {\n", "tabs kept")
}
