package protocol

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEphemeralFrame: an ephemeral frame is exactly what embedding the payload in a
// struct after type, ephemeral and id encodes to (the documented flat shape), for
// payloads with and without fields, with and without an id.
func TestEphemeralFrame(t *testing.T) {
	type progress struct {
		Color string   `json:"color"`
		Depth int      `json:"depth"`
		PV    []string `json:"pv"`
	}
	type empty struct{}
	type embedded struct {
		Type      string `json:"type"`
		Ephemeral bool   `json:"ephemeral"`
		ID        string `json:"id,omitempty"`
		*progress
	}
	p := &progress{Color: "white", Depth: 7, PV: []string{"h8", "i9"}}
	for _, tc := range []struct {
		name, typ, id string
		payload       any
		want          string
	}{
		{"ai", TypeAI, "", p, string(Encode(embedded{Type: TypeAI, Ephemeral: true, progress: p}))},
		{"hint with id", TypeHint, "m7", p, string(Encode(embedded{Type: TypeHint, Ephemeral: true, ID: "m7", progress: p}))},
		{"no fields", TypePresence, "", empty{}, `{"type":"presence","ephemeral":true}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := EphemeralFrame(tc.typ, tc.id, tc.payload)
			assert.Equal(t, tc.want, string(got))
			require.True(t, json.Valid(got))
		})
	}
	assert.Panics(t, func() { EphemeralFrame(TypeAI, "", []int{1}) }, "a payload that is not an object")
}
