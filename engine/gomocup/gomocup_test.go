package gomocup

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		line    string
		want    Command
		wantErr error
	}{
		{"START 15", Command{Kind: CmdStart, Name: "START", Size: 15}, nil},
		{"start 20\r\n", Command{Kind: CmdStart, Name: "START", Size: 20}, nil},
		{"START", Command{Kind: CmdStart, Name: "START"}, ErrSyntax},
		{"START x", Command{Kind: CmdStart, Name: "START"}, ErrSyntax},
		{"RECTSTART 20,15", Command{Kind: CmdRectStart, Name: "RECTSTART", W: 20, H: 15}, nil},
		{"RECTSTART 20", Command{Kind: CmdRectStart, Name: "RECTSTART"}, ErrSyntax},
		{"RESTART", Command{Kind: CmdRestart, Name: "RESTART"}, nil},
		{"BEGIN\r", Command{Kind: CmdBegin, Name: "BEGIN"}, nil},
		{"TURN 7,7", Command{Kind: CmdTurn, Name: "TURN", X: 7, Y: 7}, nil},
		{"TURN 7, 8", Command{Kind: CmdTurn, Name: "TURN", X: 7, Y: 8}, nil},
		{"TURN -1,2", Command{Kind: CmdTurn, Name: "TURN"}, ErrSyntax},
		{"TURN 1,2,3", Command{Kind: CmdTurn, Name: "TURN"}, ErrSyntax},
		{"TAKEBACK 3,4", Command{Kind: CmdTakeback, Name: "TAKEBACK", X: 3, Y: 4}, nil},
		{"BOARD", Command{Kind: CmdBoard, Name: "BOARD"}, nil},
		{"10,10,1", Command{Kind: CmdStone, Name: "STONE", X: 10, Y: 10, Field: 1}, nil},
		{"10,11,3", Command{Kind: CmdStone, Name: "STONE", X: 10, Y: 11, Field: 3}, nil},
		{"10,10,4", Command{Kind: CmdStone, Name: "STONE"}, ErrSyntax},
		{"DONE", Command{Kind: CmdDone, Name: "DONE"}, nil},
		{"INFO timeout_turn 5000", Command{Kind: CmdInfo, Name: "INFO", Key: "timeout_turn", Value: "5000"}, nil},
		{"INFO FOLDER C:\\x y", Command{Kind: CmdInfo, Name: "INFO", Key: "folder", Value: "C:\\x y"}, nil},
		{"INFO", Command{Kind: CmdInfo, Name: "INFO"}, ErrSyntax},
		{"END", Command{Kind: CmdEnd, Name: "END"}, nil},
		{"ABOUT", Command{Kind: CmdAbout, Name: "ABOUT"}, nil},
		{"SWAP2BOARD", Command{Kind: CmdUnknown, Name: "SWAP2BOARD"}, nil},
		{"garbage here", Command{Kind: CmdUnknown, Name: "GARBAGE"}, nil},
		{"", Command{}, ErrEmpty},
		{"  \r\n", Command{}, ErrEmpty},
		{strings.Repeat("x", MaxLineBytes+1), Command{}, ErrLineLong},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := ParseCommand(tt.line)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseReply(t *testing.T) {
	tests := []struct {
		line string
		want Reply
	}{
		{"7,7", Reply{Kind: ReplyMove, X: 7, Y: 7}},
		{"7,7\r\n", Reply{Kind: ReplyMove, X: 7, Y: 7}},
		{" 12 , 3 ", Reply{Kind: ReplyMove, X: 12, Y: 3}},
		{"OK", Reply{Kind: ReplyOK}},
		{"ERROR unsupported size", Reply{Kind: ReplyError, Text: "unsupported size"}},
		{"UNKNOWN command", Reply{Kind: ReplyUnknown, Text: "command"}},
		{"MESSAGE depth 3", Reply{Kind: ReplyMessage, Text: "depth 3"}},
		{"DEBUG x", Reply{Kind: ReplyDebug, Text: "x"}},
		{"SUGGEST 1,2", Reply{Kind: ReplySuggest, X: 1, Y: 2}},
		{`name="x", version="1"`, Reply{Kind: ReplyAbout, Text: `name="x", version="1"`}},
		{"hello", Reply{Kind: ReplyGarbage, Text: "hello"}},
		{"7,7,7", Reply{Kind: ReplyGarbage, Text: "7,7,7"}},
		{"-1,3", Reply{Kind: ReplyGarbage, Text: "-1,3"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := ParseReply(tt.line)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	_, err := ParseReply("\r\n")
	assert.ErrorIs(t, err, ErrEmpty)
}

func TestRuleMask(t *testing.T) {
	tests := []struct {
		mask int
		rule engine.Rule
		ok   bool
	}{
		{0, engine.Freestyle, true}, {1, engine.Standard, true}, {4, engine.Renju, true},
		{5, engine.Renju, true}, {2, engine.Freestyle, false}, {8, engine.Freestyle, false},
	}
	for _, tt := range tests {
		r, ok := RuleFromMask(tt.mask)
		assert.Equal(t, tt.rule, r, "mask %d", tt.mask)
		assert.Equal(t, tt.ok, ok, "mask %d", tt.mask)
	}
	for _, r := range []engine.Rule{engine.Freestyle, engine.Standard, engine.Renju} {
		got, ok := RuleFromMask(MaskFromRule(r))
		assert.True(t, ok)
		assert.Equal(t, r, got)
	}
}

func TestPointConversion(t *testing.T) {
	p, err := ToPoint(0, 0, 15)
	require.NoError(t, err)
	assert.Equal(t, "a15", p.String())
	x, y := FromPoint(p, 15)
	assert.Equal(t, [2]int{0, 0}, [2]int{x, y})
	_, err = ToPoint(15, 0, 15)
	assert.ErrorIs(t, err, engine.ErrOffBoard)
	assert.Equal(t, "7,7", FormatMove(engine.Point{X: 7, Y: 7}, 15))
	assert.Equal(t, `name="a'b", version="1", author="c", country="d"`, AboutLine(`a"b`, "1", "c", "d"))
}

func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"START 15", "TURN 1,2", "10,10,1", "INFO rule 4", "RECTSTART 3,4", "", "\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err == nil && c.Kind == CmdStone {
			assert.True(t, c.Field >= 1 && c.Field <= 3)
		}
		r, err := ParseReply(line)
		if err == nil && r.Kind == ReplyMove {
			assert.True(t, r.X >= 0 && r.Y >= 0)
		}
	})
}

func BenchmarkParseCommand(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = ParseCommand("TURN 10,11\r\n")
		_, _ = ParseReply("7,8\r\n")
	}
}
