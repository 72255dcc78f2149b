package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDecodeLearnRequest(t *testing.T) {
	tests := []struct {
		body string
		code string
		want LearnRequest
	}{
		{`{"moves":"h8i9","depth":3}`, "", LearnRequest{Moves: "h8i9", Rule: "freestyle", Size: 15, Depth: 3, Width: 3}},
		{`{"moves":"h8","rule":"renju","size":20,"depth":4,"width":6}`, "", LearnRequest{Moves: "h8", Rule: "renju", Size: 20, Depth: 4, Width: 6}},
		{`{"moves":"h8","depth":5}`, CodeBadRequest, LearnRequest{}},
		{`{"moves":"h8","depth":1}`, CodeBadRequest, LearnRequest{}},
		{`{"moves":"h8","depth":3,"rule":"go"}`, CodeBadRequest, LearnRequest{}},
		{`{"moves":"h8","depth":3,"size":14}`, CodeBadRequest, LearnRequest{}},
		{`{"moves":"h8","depth":3,"width":7}`, CodeBadRequest, LearnRequest{}},
		{`{"moves":"h8","depth":3,"extra":1}`, CodeBadJSON, LearnRequest{}},
		{`{"moves":"h8","depth":3}{}`, CodeBadJSON, LearnRequest{}},
		{`not json`, CodeBadJSON, LearnRequest{}},
	}
	_, err := DecodeLearnRequest([]byte(`{"moves":"h8","depth":2}`), 0)
	require.Equal(t, CodeBadRequest, Code(err), "eval takes no depth")
	r, err := DecodeLearnRequest([]byte(`{"moves":"h8"}`), 0)
	require.NoError(t, err)
	require.Equal(t, LearnRequest{Moves: "h8", Rule: "freestyle", Size: 15, Width: 3}, r)
	for _, tt := range tests {
		got, err := DecodeLearnRequest([]byte(tt.body), LearnMaxDepth)
		if tt.code != "" {
			require.Equal(t, tt.code, Code(err), tt.body)
			continue
		}
		require.NoError(t, err, tt.body)
		require.Equal(t, tt.want, got)
	}
}

func FuzzDecodeLearnRequest(f *testing.F) {
	f.Add([]byte(`{"moves":"h8i9","depth":3}`))
	f.Add([]byte(`{"moves":"h8","rule":"renju","size":20,"depth":4,"width":6}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodeLearnRequest(data, LearnMaxDepth)
		if err != nil {
			c := Code(err)
			require.True(t, c == CodeBadJSON || c == CodeBadRequest, c)
			return
		}
		require.True(t, r.Depth >= LearnMinDepth && r.Depth <= LearnMaxDepth)
		require.True(t, r.Width >= 1 && r.Width <= LearnMaxWidth)
		require.True(t, r.Size >= 15 && r.Size <= 20)
		require.LessOrEqual(t, len(r.Moves), 4*LearnMaxMoves)
	})
}
