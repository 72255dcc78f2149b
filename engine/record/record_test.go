package record

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		size     int
		format   Format
		moves    string // packed notation; "" with err set
		rule     string // "" when the record names none
		err      error
	}{
		{"moves", "h8i9j7", 0, Moves, "h8i9j7", "", nil},
		{"moves spaced", " h8 i9, j7\n", 15, Moves, "h8i9j7", "", nil},
		{"moves 20", "t20a1", 20, Moves, "t20a1", "", nil},
		{"moves bad", "h8 zz", 0, Moves, "", "", ErrSyntax},
		{"moves off board", "t20", 15, Moves, "", "", ErrSyntax},
		{"moves size", "h8", 21, Moves, "", "", ErrSize},
		{"empty", "  \n", 0, "", "", "", ErrEmpty},

		{"psq", "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,7,120\r\n10,8,0\r\nBlack\r\nWhite\r\n-1\r\n", 0, PSQ, "h8i9j8", "", nil},
		{"psq 20", "Piskvorky 20x20, 11:11, 0\n1,1,0\n20,20,0\n-1\n", 0, PSQ, "a20t1", "", nil},
		{"psq no moves", "Piskvorky 15x15, 11:11, 0\n-1\n", 0, PSQ, "", "", nil},
		{"psq off board", "Piskvorky 15x15, 11:11, 0\n16,1,0\n", 0, PSQ, "", "", ErrOffBoard},
		{"psq size", "Piskvorky 30x30, 11:11, 0\n1,1,0\n", 0, PSQ, "", "", ErrSize},

		{"sgf", "(;FF[4]GM[4]SZ[15]RU[renju]PB[a]PW[b]\n;B[hh];W[ig]\n;B[jh])", 0, SGF, "h8i9j8", "renju", nil},
		{"sgf default size", "(;GM[4];B[aa];W[oo])", 0, SGF, "a15o1", "", nil},
		{"sgf size pair", "(;SZ[19:19];B[aa])", 0, SGF, "a19", "", nil},
		{"sgf unknown rule", "(;SZ[15]RU[Japanese];B[hh])", 0, SGF, "h8", "", nil},
		{"sgf comment escapes", `(;C[a \] b (;B[aa\]) ];B[hh])`, 0, SGF, "h8", "", nil},
		{"sgf main line", "(;SZ[15];B[hh](;W[ii];B[jj])(;W[aa]))", 0, SGF, "h8i7j6", "", nil},
		{"sgf setup", "(;SZ[15]AB[hh][ii]AW[gg];W[jj])", 0, SGF, "h8g9i7j6", "", nil},
		{"sgf setup only", "(;SZ[15]AB[hh]AW[gg])", 0, SGF, "h8g9", "", nil},
		{"sgf setup uneven", "(;SZ[15]AB[hh][ii][jj];W[aa])", 0, SGF, "", "", ErrSetup},
		{"sgf setup after moves", "(;SZ[15];B[hh];AW[aa])", 0, SGF, "", "", ErrSetup},
		{"sgf bad size", "(;SZ[9];B[aa])", 0, SGF, "", "", ErrSize},
		{"sgf off board", "(;SZ[15];B[pp])", 0, SGF, "", "", ErrOffBoard},
		{"sgf pass", "(;SZ[15];B[])", 0, SGF, "", "", ErrSyntax},
		{"sgf unclosed", "(;SZ[15];B[hh]", 0, SGF, "", "", ErrSyntax},
		{"sgf unclosed value", "(;SZ[15];B[hh", 0, SGF, "", "", ErrSyntax},
		{"sgf no node", "()", 0, SGF, "", "", ErrSyntax},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, f, err := Parse([]byte(tt.in), tt.size)
			require.Equal(t, tt.format, f)
			if tt.err != nil {
				require.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.moves, engine.FormatMoves(g.Moves))
			require.Equal(t, tt.rule != "", g.HasRule)
			if tt.rule != "" {
				require.Equal(t, tt.rule, g.Rule.String())
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	big := make([]byte, MaxBytes+1)
	for i := range big {
		big[i] = ' '
	}
	_, _, err := Parse(big, 15)
	require.ErrorIs(t, err, ErrTooLarge)
	deep := ""
	for range sgfMaxDepth + 1 {
		deep += "(;"
	}
	_, err = ParseSGF([]byte(deep))
	require.ErrorIs(t, err, ErrSyntax)
	var se *SyntaxError
	_, err = ParseSGF([]byte("(;SZ[15]\n;B[hh]\n;W[zz])"))
	require.True(t, errors.As(err, &se))
	require.Equal(t, 3, se.Line)
	require.Contains(t, err.Error(), "line 3")
}

// checkGame is what every successful read guarantees.
func checkGame(t *testing.T, g Game) {
	require.True(t, g.Size >= engine.MinSize && g.Size <= engine.MaxSize, g.Size)
	require.LessOrEqual(t, len(g.Moves), g.Size*g.Size)
	for _, p := range g.Moves {
		require.True(t, p.Valid(g.Size), p)
	}
}

func FuzzParsePSQ(f *testing.F) {
	f.Add([]byte("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,120\n-1\n"))
	f.Add([]byte("Piskvorky 20x20, 11:11, 0\r\n1,1,0\r\n"))
	f.Add([]byte("15x15\n1,2,3,4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParsePSQ(data)
		if err != nil {
			return
		}
		checkGame(t, g)
	})
}

func FuzzParseSGF(f *testing.F) {
	f.Add([]byte("(;FF[4]GM[4]SZ[15]RU[renju];B[hh];W[ig](;B[jh])(;B[aa]))"))
	f.Add([]byte("(;SZ[20]AB[aa][bb]AW[cc];W[dd])"))
	f.Add([]byte(`(;C[\]];B[hh])`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseSGF(data)
		if err != nil {
			return
		}
		checkGame(t, g)
	})
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("h8i9j7"), 15)
	f.Add([]byte("Piskvorky 15x15, 11:11, 0\n8,8,0\n"), 0)
	f.Add([]byte("(;SZ[15];B[hh])"), 0)
	f.Fuzz(func(t *testing.T, data []byte, size int) {
		g, format, err := Parse(data, size)
		if err != nil {
			return
		}
		require.Contains(t, []Format{Moves, PSQ, SGF}, format)
		checkGame(t, g)
	})
}
