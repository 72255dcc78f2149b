package room

import (
	"context"
	"fmt"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// Rated games. A rated room's settings are checked once, when the room is created
// (checkRated); its seats take accounts only (sit). The rating change itself is the
// ratings ledger's (package ledger): it records each finished game exactly once, from
// the game_over event, and reports the change back to the room with CmdRating, which
// stores it as a rating event so that players and spectators see it.

// maxRatingLen bounds Player.Rating (a displayed rating such as "1500?").
const maxRatingLen = 8

// Pool returns the rating pool of the room's games (rule × speed class of its clock);
// ok is false for untimed rooms, which are casual only.
func (s Settings) Pool() (rating.Pool, bool) {
	t := s.Time
	return rating.PoolOf(s.Rule, t.Base(), t.Increment(), t.PerMove())
}

// checkRated refuses rated settings that cannot be rated.
func (s Settings) checkRated() error {
	if !s.Rated {
		return nil
	}
	if _, ok := s.Pool(); !ok {
		return protocol.Detail(ErrBadSettings, "a rated room needs a clock (untimed games are casual)")
	}
	switch {
	case s.Size != engine.DefaultSize:
		return protocol.Detail(ErrBadSettings, "a rated room is played on the %d×%d board", engine.DefaultSize, engine.DefaultSize)
	case s.Black.Kind != Human || s.White.Kind != Human:
		return protocol.Detail(ErrBadSettings, "a rated room needs two human seats (games against an AI or engine are casual)")
	case s.Hints:
		return protocol.Detail(ErrBadSettings, "a rated room cannot offer hints")
	}
	return nil
}

// RatingDelta is one side's rating around a rated game, rounded as displayed.
type RatingDelta struct {
	Before int `json:"before"`
	After  int `json:"after"`
	// Provisional: the rating after the game is still provisional (shown with "?").
	Provisional bool `json:"provisional,omitempty"`
}

// RatingChange is the rating change of a finished rated game (rating event, snapshot).
type RatingChange struct {
	Pool  string      `json:"pool"`
	Black RatingDelta `json:"black"`
	White RatingDelta `json:"white"`
}

// RatingOf returns the change of one game from the ratings before and after it.
func RatingOf(pool string, blackBefore, blackAfter, whiteBefore, whiteAfter rating.Rating) RatingChange {
	d := func(b, a rating.Rating) RatingDelta {
		return RatingDelta{Before: round(b.R), After: round(a.R), Provisional: a.Provisional()}
	}
	return RatingChange{Pool: pool, Black: d(blackBefore, blackAfter), White: d(whiteBefore, whiteAfter)}
}

func round(f float64) int {
	if f < 0 {
		return int(f - 0.5)
	}
	return int(f + 0.5)
}

// RatingChange returns the rating change of the current game once the ledger has
// reported it (nil before, and for casual games).
func (s State) RatingChange() *RatingChange {
	if s.ratedGame != s.game || s.rating == nil {
		return nil
	}
	c := *s.rating
	return &c
}

// ratingCmd stores the rating change of game cmd.Game (CmdRating). Reporting a game's
// change again is a no-op: the ledger's record is the same on every try.
func (a *applier) ratingCmd() error {
	c := a.cmd
	switch {
	case !a.s.settings.Rated || c.Rating == nil || c.Game < 1 || c.Game > a.s.game:
		return ErrBadRequest
	case c.Game <= a.s.ratedGame:
		return nil
	case c.Game == a.s.game && a.s.phase != PhaseOver:
		return ErrGameNotStarted
	}
	rc := *c.Rating
	return a.emit(Event{Kind: EvRating, Game: c.Game, Rating: &rc})
}

// ReportRating stores the rating change of game number game of the room (CmdRating):
// called by the ledger's recorder once the game is recorded. A change already
// reported is acknowledged again without a new event.
func (r *Room) ReportRating(ctx context.Context, game int, change RatingChange) error {
	_, err := r.do(ctx, request{cmd: Command{Kind: CmdRating, Game: game, Rating: &change}, internal: true,
		reply: make(chan response, 1)})
	if err != nil {
		return fmt.Errorf("room %s: report rating of game %d: %w", r.id, game, err)
	}
	return nil
}
