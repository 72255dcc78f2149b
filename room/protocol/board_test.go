package protocol

import (
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDecodeAnalysisQuery(t *testing.T) {
	for _, tt := range []struct {
		query string
		code  string
		want  AnalysisRequest
	}{
		{"moves=h8i9", "", AnalysisRequest{Moves: "h8i9", Rule: "freestyle", Size: 15, Seconds: 30, Lines: 3}},
		{"moves=&rule=renju&size=20&time=5&lines=1", "", AnalysisRequest{Rule: "renju", Size: 20, Seconds: 5, Lines: 1}},
		{"rule=go", CodeBadRequest, AnalysisRequest{}},
		{"size=14", CodeBadRequest, AnalysisRequest{}},
		{"size=x", CodeBadRequest, AnalysisRequest{}},
		{"time=0", CodeBadRequest, AnalysisRequest{}},
		{"time=31", CodeBadRequest, AnalysisRequest{}},
		{"lines=4", CodeBadRequest, AnalysisRequest{}},
		{"depth=3", CodeBadRequest, AnalysisRequest{}},
	} {
		q, err := url.ParseQuery(tt.query)
		require.NoError(t, err)
		got, err := DecodeAnalysisQuery(q)
		if tt.code != "" {
			require.Equal(t, tt.code, Code(err), tt.query)
			continue
		}
		require.NoError(t, err, tt.query)
		require.Equal(t, tt.want, got, tt.query)
	}
}

func FuzzDecodeAnalysisQuery(f *testing.F) {
	f.Add("moves=h8i9&rule=renju&size=20&time=5&lines=1")
	f.Add("moves=h8&time=99")
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		r, err := DecodeAnalysisQuery(q)
		if err != nil {
			require.Equal(t, CodeBadRequest, Code(err))
			return
		}
		require.True(t, r.Size >= 15 && r.Size <= 20)
		require.True(t, r.Seconds >= 1 && time.Duration(r.Seconds)*time.Second <= AnalysisMaxTime)
		require.True(t, r.Lines >= 1 && r.Lines <= AnalysisMaxLines)
		require.Contains(t, []string{"freestyle", "standard", "renju"}, r.Rule)
		require.LessOrEqual(t, len(r.Moves), 4*AnalysisMaxMoves)
	})
}
