package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
	"github.com/gomoku-arena/gomoku/engine/gomocup"
)

var brainPath string

// TestMain builds the brain once for all tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pbrain-test")
	if err != nil {
		panic(err)
	}
	brainPath = filepath.Join(dir, "pbrain-gomoku")
	out, err := exec.Command("go", "build", "-o", brainPath, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type brainProc struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startBrain(t *testing.T, args ...string) *brainProc {
	cmd := exec.Command(brainPath, args...)
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	b := &brainProc{t: t, cmd: cmd, in: in, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			b.lines <- sc.Text()
		}
		close(b.lines)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return b
}

func (b *brainProc) send(line string) {
	_, err := io.WriteString(b.in, line+"\r\n")
	require.NoError(b.t, err)
}

// reply returns the next non-MESSAGE line, failing after timeout.
func (b *brainProc) reply(timeout time.Duration) string {
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-b.lines:
			if !ok {
				return "<EOF>"
			}
			if !strings.HasPrefix(l, "MESSAGE") {
				return l
			}
		case <-deadline:
			b.t.Fatalf("no reply within %v", timeout)
		}
	}
}

// TestWholeGame plays a full game between the brain (as black, then as white) and
// the baseline, checking every reply and the time per move.
func TestWholeGame(t *testing.T) {
	for _, brainBlack := range []bool{true, false} {
		t.Run(fmt.Sprintf("brain_black_%v", brainBlack), func(t *testing.T) {
			br := startBrain(t, "-player", "level:beginner")
			br.send("START 15")
			require.Equal(t, "OK", br.reply(5*time.Second))
			br.send("INFO timeout_turn 300")
			br.send("INFO timeout_match 100000")
			br.send("INFO rule 1")
			b, _ := engine.NewBoard(15, engine.Standard)
			opp := baseline.New(baseline.Options{Depth: 1})
			if brainBlack {
				br.send("BEGIN")
			} else {
				res, err := opp.Play(context.Background(), b, engine.Limits{}, nil)
				require.NoError(t, err)
				require.NoError(t, b.Play(res.Move))
				x, y := gomocup.FromPoint(res.Move, 15)
				br.send(fmt.Sprintf("TURN %d,%d", x, y))
			}
			for !b.Outcome().Over {
				start := time.Now()
				line := br.reply(3 * time.Second)
				// timeout_turn 300 ms; the slack covers pipes and a heavily loaded test machine.
				assert.Less(t, time.Since(start), 1500*time.Millisecond, "move time")
				r, err := gomocup.ParseReply(line)
				require.NoError(t, err)
				require.Equal(t, gomocup.ReplyMove, r.Kind, "reply %q", line)
				p, err := gomocup.ToPoint(r.X, r.Y, 15)
				require.NoError(t, err)
				require.NoError(t, b.Play(p), "brain move %s", p)
				if b.Outcome().Over {
					break
				}
				res, err := opp.Play(context.Background(), b, engine.Limits{}, nil)
				require.NoError(t, err)
				require.NoError(t, b.Play(res.Move))
				if b.Outcome().Over {
					break
				}
				x, y := gomocup.FromPoint(res.Move, 15)
				br.send(fmt.Sprintf("TURN %d,%d", x, y))
			}
			br.send("END")
			done := make(chan error, 1)
			go func() { done <- br.cmd.Wait() }()
			select {
			case err := <-done:
				assert.NoError(t, err)
			case <-time.After(3 * time.Second):
				t.Fatal("brain did not exit on END")
			}
		})
	}
}

// TestBadInput feeds garbage, off-board and occupied points, unknown commands and
// LF-only lines; the brain answers each and keeps playing.
func TestBadInput(t *testing.T) {
	br := startBrain(t, "-player", "baseline")
	steps := []struct{ send, want string }{
		{"BEGIN", "ERROR no game started (send START first)"},
		{"START 15", "OK"},
		{"INFO timeout_turn 200", ""},
		{"\x7f\xfe garbage", "UNKNOWN"},
		{"YXSHOWFORBID", `UNKNOWN command "YXSHOWFORBID"`},
		{"TURN 20,20", "ERROR TURN 20,20"},
		{"TURN 1", "ERROR TURN"},
		{"TURN 7,7", "MOVE"},
		{"TURN 7,7", "ERROR TURN 7,7: engine: point is occupied"},
		{"DONE", "ERROR DONE without BOARD"},
		{"1,2,1", "UNKNOWN stone line outside BOARD"},
		{"ABOUT", `name="GomokuArena"`},
		{"TURN 3,3", "MOVE"},
	}
	for _, st := range steps {
		br.send(st.send)
		if st.want == "" {
			continue
		}
		got := br.reply(3 * time.Second)
		if st.want == "MOVE" {
			assert.Regexp(t, `^\d+,\d+$`, got, "after %q", st.send)
			continue
		}
		assert.True(t, strings.HasPrefix(got, st.want), "after %q: got %q want %q", st.send, got, st.want)
	}
	_, err := io.WriteString(br.in, "ABOUT\n") // LF only
	require.NoError(t, err)
	assert.Contains(t, br.reply(3*time.Second), "GomokuArena")
	br.send("END")
	assert.Equal(t, "<EOF>", br.reply(3*time.Second))
}
