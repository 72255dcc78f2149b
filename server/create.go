package server

import (
	"bytes"
	"crypto/rand"
	"encoding/json"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// maxCreateBody bounds the POST /api/rooms body.
const maxCreateBody = 4096

// CreateRoomRequest is the body of POST /api/rooms (docs/protocol.md).
type CreateRoomRequest struct {
	Rule      string            `json:"rule"`
	Size      int               `json:"size"`
	Time      *room.TimeControl `json:"time"`
	Me        string            `json:"me"`
	Opponent  *room.SeatSpec    `json:"opponent"`
	Black     *room.SeatSpec    `json:"black"`
	White     *room.SeatSpec    `json:"white"`
	Public    *bool             `json:"public"`
	Takebacks *bool             `json:"takebacks"`
	Chat      *bool             `json:"chat"`
	Hints     *bool             `json:"hints"`
	Opening   string            `json:"opening"`
	// FirstMoveMS and AIPaceMS: room.Settings; absent means the defaults (30 s, 1 s).
	FirstMoveMS *int64 `json:"first_move_ms"`
	AIPaceMS    *int64 `json:"ai_pace_ms"`
	// Rated: the games count for ratings (room.Settings.Rated).
	Rated bool `json:"rated"`
	// AutoAnalysis: the server analyses each finished game (room.Settings.AutoAnalysis);
	// absent means on for a person against a machine, off otherwise.
	AutoAnalysis *bool `json:"auto_analysis"`
}

// NewRoom is a validated create-room request: the room's settings (normalised by
// room.Settings.Normalize, the one validation of settings) and the creator's seat,
// OwnerColor ("" when the creator only watches; a random colour is drawn here).
type NewRoom struct {
	room.Settings
	OwnerColor string
}

// ParseCreateRoom decodes and validates a create-room body. engines is the set of
// configured external engine names.
func ParseCreateRoom(body []byte, engines map[string]string) (NewRoom, error) {
	var req CreateRoomRequest
	if len(body) > maxCreateBody {
		return NewRoom{}, protocol.Errorf(protocol.CodeTooLarge, "body larger than %d bytes", maxCreateBody)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return NewRoom{}, protocol.Errorf(protocol.CodeBadJSON, "malformed body: %s", protocol.Truncate(err.Error(), 120))
	}
	if dec.More() {
		return NewRoom{}, protocol.Errorf(protocol.CodeBadJSON, "trailing data after the JSON object")
	}
	return req.Normalize(engines)
}

// Normalize validates req and fills the defaults: rule freestyle, size 15, no clock,
// me random, opponent human, public, takebacks and chat on, hints off (on against AI),
// 30 s for each side's first move, AI vs AI moves 1 s apart, automatic analysis on
// for a person against a machine.
func (req CreateRoomRequest) Normalize(engines map[string]string) (NewRoom, error) {
	r := NewRoom{Settings: room.Settings{Rule: req.Rule, Size: req.Size, Opening: req.Opening, Public: true, Takebacks: true, Chat: true,
		FirstMoveMS: room.DefaultFirstMoveMS, AIPaceMS: room.DefaultAIPaceMS}}
	if req.Time != nil {
		r.Time = *req.Time
	}
	r.Rated = req.Rated
	if req.FirstMoveMS != nil {
		if *req.FirstMoveMS == 0 {
			return NewRoom{}, protocol.Errorf(protocol.CodeBadRequest, `"first_move_ms" must be %d..%d`, room.MinFirstMoveMS, room.MaxFirstMoveMS)
		}
		r.FirstMoveMS = *req.FirstMoveMS
	}
	if req.AIPaceMS != nil {
		r.AIPaceMS = *req.AIPaceMS
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
			return NewRoom{}, protocol.Errorf(protocol.CodeBadRequest, `"me":"none" (AI vs AI) needs "black" and "white" seats and no "opponent"`)
		}
		for _, s := range []*room.SeatSpec{req.Black, req.White} {
			if !s.IsMachine() {
				return NewRoom{}, protocol.Errorf(protocol.CodeBadRequest, `with "me":"none" both seats must be "ai" or "engine"`)
			}
		}
		var err error
		if r.Black, err = checkSeat(*req.Black, engines); err != nil {
			return NewRoom{}, err
		}
		if r.White, err = checkSeat(*req.White, engines); err != nil {
			return NewRoom{}, err
		}
	case "black", "white", "random":
		if req.Black != nil || req.White != nil {
			return NewRoom{}, protocol.Errorf(protocol.CodeBadRequest, `"black"/"white" seats are only for "me":"none"; use "opponent"`)
		}
		opp := room.SeatSpec{Kind: room.Human}
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
			r.Black, r.White = room.SeatSpec{Kind: room.Human}, o
		} else {
			r.Black, r.White = o, room.SeatSpec{Kind: room.Human}
		}
	default:
		return NewRoom{}, protocol.Errorf(protocol.CodeBadRequest, `"me" must be black, white, random or none`)
	}
	r.Hints = r.Black.IsMachine() || r.White.IsMachine()
	if req.Hints != nil {
		r.Hints = *req.Hints
	}
	r.AutoAnalysis = me != "none" && (r.Black.IsMachine() || r.White.IsMachine())
	if req.AutoAnalysis != nil {
		r.AutoAnalysis = *req.AutoAnalysis
	}
	set, err := r.Settings.Normalize()
	if err != nil {
		return NewRoom{}, err
	}
	r.Settings = set
	return r, nil
}

// checkSeat normalizes a seat of the request (room.SeatSpec.Normalize) and refuses an
// engine that is not configured.
func checkSeat(s room.SeatSpec, engines map[string]string) (room.SeatSpec, error) {
	s, err := s.Normalize()
	if err != nil {
		return s, err
	}
	s.Player = "" // seats are reserved by quick pairing only
	return s, engineConfigured(engines)(s)
}

// engineConfigured returns the check that an engine seat names a configured engine
// (room.Options.ValidateSeat of a server's rooms).
func engineConfigured(engines map[string]string) func(room.SeatSpec) error {
	return func(s room.SeatSpec) error {
		if _, ok := engines[s.Engine]; s.Kind == room.Engine && !ok {
			return protocol.Errorf(protocol.CodeNoSuchEngine, "no configured engine %q (see GET /api/engines)", protocol.Truncate(s.Engine, 32))
		}
		return nil
	}
}
