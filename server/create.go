package server

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// maxCreateBody bounds the POST /api/rooms body.
const maxCreateBody = 4096

// SeatRequest is a seat in a create-room request.
type SeatRequest struct {
	Kind   string `json:"kind"`             // human, ai, engine
	Level  string `json:"level,omitempty"`  // ai: an engine level name
	Engine string `json:"engine,omitempty"` // engine: a configured engine name
}

// TimeRequest is the time control of a create-room request (all zero: no clock).
type TimeRequest struct {
	BaseMS      int64 `json:"base_ms"`
	IncrementMS int64 `json:"increment_ms"`
	PerMoveMS   int64 `json:"per_move_ms"`
}

// CreateRoomRequest is the body of POST /api/rooms (docs/protocol.md).
type CreateRoomRequest struct {
	Rule      string       `json:"rule"`
	Size      int          `json:"size"`
	Time      *TimeRequest `json:"time"`
	Me        string       `json:"me"`
	Opponent  *SeatRequest `json:"opponent"`
	Black     *SeatRequest `json:"black"`
	White     *SeatRequest `json:"white"`
	Public    *bool        `json:"public"`
	Takebacks *bool        `json:"takebacks"`
	Chat      *bool        `json:"chat"`
	Hints     *bool        `json:"hints"`
}

// NewRoom is a validated, normalised create-room request: both seats resolved, random
// colour drawn. OwnerColor is the creator's seat ("" when the creator only watches).
type NewRoom struct {
	Rule       string
	Size       int
	Time       TimeRequest
	Black      SeatRequest
	White      SeatRequest
	Public     bool
	Takebacks  bool
	Chat       bool
	Hints      bool
	OwnerColor string
}

// Limits of the time control.
const (
	maxBaseMS      = int64(3 * time.Hour / time.Millisecond)
	minBaseMS      = int64(10 * time.Second / time.Millisecond)
	maxIncrementMS = int64(time.Minute / time.Millisecond)
	maxPerMoveMS   = int64(time.Hour / time.Millisecond)
	minPerMoveMS   = int64(time.Second / time.Millisecond)
)

// ParseCreateRoom decodes and validates a create-room body. engines is the set of
// configured external engine names.
func ParseCreateRoom(body []byte, engines map[string]string) (NewRoom, *Error) {
	var req CreateRoomRequest
	if len(body) > maxCreateBody {
		return NewRoom{}, Errorf(protocol.CodeTooLarge, "body larger than %d bytes", maxCreateBody)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return NewRoom{}, Errorf(protocol.CodeBadJSON, "malformed body: %s", protocol.Truncate(err.Error(), 120))
	}
	if dec.More() {
		return NewRoom{}, Errorf(protocol.CodeBadJSON, "trailing data after the JSON object")
	}
	return req.Normalize(engines)
}

// Normalize validates req and fills the defaults: rule freestyle, size 15, no clock,
// me random, opponent human, public, takebacks and chat on, hints off (on against AI).
func (req CreateRoomRequest) Normalize(engines map[string]string) (NewRoom, *Error) {
	r := NewRoom{Rule: req.Rule, Size: req.Size, Public: true, Takebacks: true, Chat: true}
	if r.Rule == "" {
		r.Rule = "freestyle"
	}
	if _, err := engine.ParseRule(r.Rule); err != nil {
		return NewRoom{}, Errorf(protocol.CodeBadRequest, `"rule" must be freestyle, standard or renju`)
	}
	if r.Size == 0 {
		r.Size = engine.DefaultSize
	}
	if r.Size < engine.MinSize || r.Size > engine.MaxSize {
		return NewRoom{}, Errorf(protocol.CodeBadRequest, `"size" must be %d..%d`, engine.MinSize, engine.MaxSize)
	}
	if req.Time != nil {
		t := *req.Time
		switch {
		case t.BaseMS != 0 && (t.BaseMS < minBaseMS || t.BaseMS > maxBaseMS):
			return NewRoom{}, Errorf(protocol.CodeBadRequest, `"time.base_ms" must be 0 or %d..%d`, minBaseMS, maxBaseMS)
		case t.IncrementMS < 0 || t.IncrementMS > maxIncrementMS || (t.BaseMS == 0 && t.IncrementMS != 0):
			return NewRoom{}, Errorf(protocol.CodeBadRequest, `"time.increment_ms" must be 0..%d and needs base_ms`, maxIncrementMS)
		case t.PerMoveMS != 0 && (t.PerMoveMS < minPerMoveMS || t.PerMoveMS > maxPerMoveMS):
			return NewRoom{}, Errorf(protocol.CodeBadRequest, `"time.per_move_ms" must be 0 or %d..%d`, minPerMoveMS, maxPerMoveMS)
		}
		r.Time = t
	}
	for _, o := range []struct {
		v   *bool
		dst *bool
	}{{req.Public, &r.Public}, {req.Takebacks, &r.Takebacks}, {req.Chat, &r.Chat}} {
		if o.v != nil {
			*o.dst = *o.v
		}
	}
	me := req.Me
	if me == "" {
		me = "random"
	}
	switch me {
	case "none":
		if req.Black == nil || req.White == nil || req.Opponent != nil {
			return NewRoom{}, Errorf(protocol.CodeBadRequest, `"me":"none" (AI vs AI) needs "black" and "white" seats and no "opponent"`)
		}
		for _, s := range []*SeatRequest{req.Black, req.White} {
			if s.Kind != "ai" && s.Kind != "engine" {
				return NewRoom{}, Errorf(protocol.CodeBadRequest, `with "me":"none" both seats must be "ai" or "engine"`)
			}
		}
		var e *Error
		if r.Black, e = checkSeat(*req.Black, engines); e != nil {
			return NewRoom{}, e
		}
		if r.White, e = checkSeat(*req.White, engines); e != nil {
			return NewRoom{}, e
		}
	case "black", "white", "random":
		if req.Black != nil || req.White != nil {
			return NewRoom{}, Errorf(protocol.CodeBadRequest, `"black"/"white" seats are only for "me":"none"; use "opponent"`)
		}
		opp := SeatRequest{Kind: "human"}
		if req.Opponent != nil {
			opp = *req.Opponent
		}
		o, e := checkSeat(opp, engines)
		if e != nil {
			return NewRoom{}, e
		}
		if me == "random" {
			me = "black"
			var b [1]byte
			if _, err := rand.Read(b[:]); err == nil && b[0]&1 == 1 {
				me = "white"
			}
		}
		r.OwnerColor = me
		if me == "black" {
			r.Black, r.White = SeatRequest{Kind: "human"}, o
		} else {
			r.Black, r.White = o, SeatRequest{Kind: "human"}
		}
	default:
		return NewRoom{}, Errorf(protocol.CodeBadRequest, `"me" must be black, white, random or none`)
	}
	machine := r.Black.Kind != "human" || r.White.Kind != "human"
	r.Hints = machine
	if req.Hints != nil {
		r.Hints = *req.Hints
	}
	return r, nil
}

func checkSeat(s SeatRequest, engines map[string]string) (SeatRequest, *Error) {
	switch s.Kind {
	case "", "human":
		return SeatRequest{Kind: "human"}, nil
	case "ai":
		if s.Level == "" {
			s.Level = "intermediate"
		}
		if _, err := engine.LevelByName(s.Level); err != nil {
			return s, Errorf(protocol.CodeBadRequest, "unknown AI level %q (see GET /api/engines)", protocol.Truncate(s.Level, 32))
		}
		return SeatRequest{Kind: "ai", Level: s.Level}, nil
	case "engine":
		if _, ok := engines[s.Engine]; !ok || s.Engine == "" {
			return s, Errorf(protocol.CodeNoSuchEngine, "no configured engine %q (see GET /api/engines)", protocol.Truncate(s.Engine, 32))
		}
		return SeatRequest{Kind: "engine", Engine: s.Engine}, nil
	}
	return s, Errorf(protocol.CodeBadRequest, `seat "kind" must be human, ai or engine`)
}
