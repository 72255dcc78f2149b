package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gomoku-arena/gomoku/cmd/internal/players"
	"github.com/gomoku-arena/gomoku/engine"
)

func runPlay(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("play", stderr)
	spec := fs.String("player", "level:intermediate", "the AI")
	ruleName := fs.String("rule", "freestyle", "rule: freestyle, standard or renju")
	size := fs.Int("size", 15, "board size (15 to 20)")
	colour := fs.String("color", "black", "your colour: black (moves first) or white")
	moveTime := fs.Duration("time", time.Second, "AI time per move")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the AI's randomness")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rule, err := engine.ParseRule(*ruleName)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	me := engine.Black
	switch *colour {
	case "black":
	case "white":
		me = engine.White
	default:
		return fmt.Errorf("%w: -color must be black or white", errUsage)
	}
	f, err := players.Parse(*spec, players.Options{Seed: *seed})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	b, err := engine.NewBoard(*size, rule)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ai := f.New(*seed)
	defer players.Close(ai)
	return playLoop(ctx, stdin, stdout, b, me, ai, *moveTime)
}

// playLoop runs the terminal game: the human types points (h8), undo, hint or quit.
func playLoop(ctx context.Context, stdin io.Reader, out io.Writer, b *engine.Board, me engine.Color, ai engine.Player, moveTime time.Duration) error {
	in := bufio.NewScanner(stdin)
	fmt.Fprintf(out, "You play %s against %s (%s, %dx%d). Type a point like h8, or undo, hint, quit.\n", me, ai.Name(), b.Rule(), b.Size(), b.Size())
	for {
		if o := b.Outcome(); o.Over {
			drawBoard(out, b)
			switch o.Winner {
			case me:
				fmt.Fprintln(out, "You win!")
			case engine.Empty:
				fmt.Fprintln(out, "Draw: the board is full.")
			default:
				fmt.Fprintf(out, "%s wins.\n", ai.Name())
			}
			fmt.Fprintln(out, "Type undo to take back, or quit.")
		} else if b.ToMove() != me {
			res, err := ai.Play(ctx, b, engine.Limits{Time: moveTime}, nil)
			if err != nil {
				return err
			}
			if err := b.Play(res.Move); err != nil {
				return fmt.Errorf("AI move %s: %w", res.Move, err)
			}
			fmt.Fprintf(out, "%s plays %s (%s)\n", ai.Name(), res.Move, describeScore(res.Score))
			continue
		} else {
			drawBoard(out, b)
			fmt.Fprint(out, "your move> ")
		}
		if !in.Scan() {
			fmt.Fprintln(out)
			return in.Err()
		}
		cmd := strings.ToLower(strings.TrimSpace(in.Text()))
		switch cmd {
		case "":
		case "quit", "exit", "q":
			fmt.Fprintln(out, "Bye.")
			return nil
		case "help", "?":
			fmt.Fprintln(out, "Commands: a point such as h8, undo (takes back your last move and the reply), hint, quit.")
		case "undo", "u":
			n := 2
			if b.ToMove() != me {
				n = 1
			}
			if b.Ply() < n || (b.Ply() == 1 && me == engine.White) {
				fmt.Fprintln(out, "Nothing to undo.")
				continue
			}
			for i := 0; i < n; i++ {
				_, _ = b.Undo()
			}
			fmt.Fprintln(out, "Taken back.")
		case "hint", "h":
			if b.Outcome().Over {
				continue
			}
			res, err := ai.Play(ctx, b, engine.Limits{Time: moveTime}, nil)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Hint: %s (%s)\n", res.Move, describeScore(res.Score))
		default:
			if b.Outcome().Over {
				fmt.Fprintln(out, "The game is over: undo or quit.")
				continue
			}
			p, err := engine.ParsePoint(cmd, b.Size())
			if err != nil {
				fmt.Fprintf(out, "%q is not a point or command (try h8, undo, hint, quit).\n", cmd)
				continue
			}
			if err := b.Play(p); err != nil {
				fmt.Fprintf(out, "Cannot play %s: %v\n", p, err)
			}
		}
	}
}

func describeScore(s engine.Score) string {
	switch n := s.MatePlies(); {
	case n > 0:
		return fmt.Sprintf("wins in %d", (n+1)/2)
	case n < 0:
		return fmt.Sprintf("loses in %d", (-n+1)/2)
	}
	return fmt.Sprintf("eval %+d", s)
}

// drawBoard prints the board with coordinates: X black, O white, the last move in
// brackets, renju forbidden points for black as '!' when black is to move.
func drawBoard(w io.Writer, b *engine.Board) {
	n := b.Size()
	var sb strings.Builder
	letters := func() {
		sb.WriteString("    ")
		for x := 0; x < n; x++ {
			sb.WriteString(" " + string(rune('a'+x)) + " ")
		}
		sb.WriteString("\n")
	}
	letters()
	last := b.LastMove()
	for y := n - 1; y >= 0; y-- {
		fmt.Fprintf(&sb, "%3d ", y+1)
		for x := 0; x < n; x++ {
			p := engine.Point{X: x, Y: y}
			c := " . "
			switch b.At(p) {
			case engine.Black:
				c = " X "
			case engine.White:
				c = " O "
			default:
				if b.Rule() == engine.Renju && b.ToMove() == engine.Black && b.ForbiddenAt(p) != engine.NotForbidden {
					c = " ! "
				}
			}
			if p == last {
				c = "[" + c[1:2] + "]"
			}
			sb.WriteString(c)
		}
		fmt.Fprintf(&sb, " %d\n", y+1)
	}
	letters()
	io.WriteString(w, sb.String())
}
