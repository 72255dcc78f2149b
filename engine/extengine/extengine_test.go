package extengine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
)

var (
	brainPath string
	tmpDir    string
)

// TestMain builds pbrain-gomoku once for the tests.
func TestMain(m *testing.M) {
	var err error
	tmpDir, err = os.MkdirTemp("", "extengine-test")
	if err != nil {
		panic(err)
	}
	brainPath = filepath.Join(tmpDir, "pbrain-gomoku")
	out, err := exec.Command("go", "build", "-o", brainPath, "github.com/gomoku-arena/gomoku/cmd/pbrain-gomoku").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmpDir)
	os.Exit(code)
}

// fake writes a shell brain that answers START with OK and runs onMove when asked to
// move; it records its pid in a file.
func fake(t *testing.T, name, onMove string) (path, pidFile string) {
	pidFile = filepath.Join(t.TempDir(), "pid")
	script := `#!/bin/sh
echo $$ > ` + pidFile + `
while read -r line; do
  case "$line" in
    START*) echo OK ;;
    BEGIN*|TURN*|DONE*) ` + onMove + ` ;;
  esac
done
`
	path = filepath.Join(t.TempDir(), "pbrain-"+name)
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return path, pidFile
}

func alive(t *testing.T, pidFile string) bool {
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	return syscall.Kill(pid, 0) == nil
}

func TestMisbehavingEngines(t *testing.T) {
	tests := []struct {
		name   string
		onMove string
		want   error
	}{
		{"crash", "exit 3", ErrCrashed},
		{"hang", "sleep 30", ErrTimeout},
		{"garbage", "echo 'I am thinking about it'", ErrGarbage},
		{"off board", "echo 99,99", ErrIllegal},
		{"occupied", "echo 7,7", ErrIllegal},
		{"refuses", "echo ERROR no way", ErrRefused},
		{"messages then crash", "echo MESSAGE hi; echo DEBUG x; kill -9 $$", ErrCrashed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, pidFile := fake(t, strings.ReplaceAll(tt.name, " ", "-"), tt.onMove)
			var msgs []string
			e := New(Config{Path: path, Grace: 300 * time.Millisecond, Pause: 5 * time.Millisecond, OnMessage: func(s string) { msgs = append(msgs, s) }})
			defer e.Close()
			b, _ := engine.NewBoard(15, engine.Freestyle)
			require.NoError(t, b.Play(engine.Point{X: 7, Y: 7}))
			start := time.Now()
			_, err := e.Play(context.Background(), b, engine.Limits{Time: 200 * time.Millisecond}, nil)
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
			var ee *Error
			require.True(t, errors.As(err, &ee))
			assert.Equal(t, "pbrain-"+strings.ReplaceAll(tt.name, " ", "-"), ee.Engine)
			assert.Less(t, time.Since(start), 3*time.Second)
			assert.False(t, alive(t, pidFile), "process reaped")
		})
	}
}

func TestCancelKillsEngine(t *testing.T) {
	path, pidFile := fake(t, "slow", "sleep 30")
	e := New(Config{Path: path})
	defer e.Close()
	b, _ := engine.NewBoard(15, engine.Freestyle)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := e.Play(ctx, b, engine.Limits{Time: 10 * time.Second}, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.False(t, alive(t, pidFile))
}

func TestStartFailure(t *testing.T) {
	e := New(Config{Path: filepath.Join(t.TempDir(), "missing")})
	b, _ := engine.NewBoard(15, engine.Freestyle)
	_, err := e.Play(context.Background(), b, engine.Limits{Time: time.Second}, nil)
	assert.ErrorIs(t, err, ErrStart)
}

// TestAgainstBrain plays pbrain-gomoku (through this package) against the baseline
// under each rule, then reuses the same process for a second game from a new position.
func TestAgainstBrain(t *testing.T) {
	for _, rule := range []engine.Rule{engine.Freestyle, engine.Renju} {
		t.Run(rule.String(), func(t *testing.T) {
			e := New(Config{Path: brainPath, Args: []string{"-player", "level:beginner"}})
			defer e.Close()
			assert.Equal(t, "pbrain-gomoku", e.Name())
			base := baseline.New(baseline.Options{Depth: 1})
			for game := 0; game < 2; game++ {
				b, _ := engine.NewBoard(15, rule)
				if game == 1 {
					// An opening position sent with BOARD.
					ms, _ := engine.ParseMoves("h8i9j8", 15)
					b, _ = engine.BoardFromMoves(15, rule, ms)
				}
				players := [2]engine.Player{e, base}
				for i := 0; !b.Outcome().Over && b.Ply() < 60; i++ {
					p := players[b.Ply()%2]
					if game == 1 {
						p = players[(b.Ply()+1)%2]
					}
					res, err := p.Play(context.Background(), b, engine.Limits{Time: 100 * time.Millisecond}, nil)
					require.NoError(t, err, "%s at ply %d", p.Name(), b.Ply())
					require.NoError(t, b.Play(res.Move))
				}
			}
		})
	}
}

// TestPauseBetweenCommands checks the pause after a reply before the next command.
func TestPauseBetweenCommands(t *testing.T) {
	e := New(Config{Path: brainPath, Args: []string{"-player", "baseline"}, Pause: 150 * time.Millisecond})
	defer e.Close()
	b, _ := engine.NewBoard(15, engine.Freestyle)
	start := time.Now()
	_, err := e.Play(context.Background(), b, engine.Limits{Time: 100 * time.Millisecond}, nil)
	require.NoError(t, err)
	// START answered OK, then INFO lines each wait for the pause after that reply only
	// once, then BEGIN: at least one pause elapsed.
	assert.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond)
}

func TestPrepareStartsOffTheClock(t *testing.T) {
	// The brain needs 400 ms to answer START, more than the move's context allows:
	// started by Prepare, the first move is in time.
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := `#!/bin/sh
echo $$ > ` + pidFile + `
while read -r line; do
  case "$line" in
    START*) sleep 0.4; echo OK ;;
    BEGIN*|TURN*|DONE*) echo 8,8 ;;
  esac
done
`
	path := filepath.Join(t.TempDir(), "pbrain-slowstart")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	e := New(Config{Path: path, Pause: 5 * time.Millisecond})
	defer e.Close()
	require.NoError(t, e.Prepare(context.Background(), 15, engine.Freestyle))
	b, _ := engine.NewBoard(15, engine.Freestyle)
	require.NoError(t, b.Play(engine.Point{X: 7, Y: 7}))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := e.Play(ctx, b, engine.Limits{Time: 100 * time.Millisecond}, nil)
	require.NoError(t, err)
	assert.Equal(t, engine.Point{X: 8, Y: 6}, res.Move, "Gomocup 8,8 with y from the top")
}

// TestInfosSentAfterStart checks that Config.Infos reach the brain after START,
// after the standard INFO lines and before the move command.
func TestInfosSentAfterStart(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "log")
	script := `#!/bin/sh
while read -r line; do
  echo "$line" >> ` + logFile + `
  case "$line" in
    START*) echo OK ;;
    BEGIN*|TURN*|DONE*) echo 8,8 ;;
  esac
done
`
	path := filepath.Join(t.TempDir(), "pbrain-log")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	e := New(Config{Path: path, Pause: -1, Infos: []string{"INFO MAX_NODE 777", "INFO SHOW_DETAIL 0"}})
	defer e.Close()
	b, _ := engine.NewBoard(15, engine.Freestyle)
	_, err := e.Play(context.Background(), b, engine.Limits{Time: 100 * time.Millisecond}, nil)
	require.NoError(t, err)
	raw, err := os.ReadFile(logFile)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	require.Equal(t, []string{"START 15", "INFO rule 0", "INFO game_type 1", "INFO timeout_match 0",
		"INFO MAX_NODE 777", "INFO SHOW_DETAIL 0", "INFO timeout_turn 100", "BEGIN"}, lines)
}
