package pairing

// RoomSeats is what recovery reads of a match's room in the room store: whether the
// room exists, the ids of the players seated at black and white ("" for an empty
// seat), and whether its game is over.
type RoomSeats struct {
	Exists       bool
	Black, White string
	Over         bool
}

// Recovered is the outcome of a match that its seating node did not settle (it died,
// or lost Redis, after or while seating), decided from the room as stored: seated when
// both players sit at their colours in a game that is not over, so they are told
// paired and play; failed otherwise (no room, a seat empty or someone else's, or a game
// over already), and the room is closed before anyone is told.
func Recovered(m Match, r RoomSeats) Status {
	if r.Exists && !r.Over && r.Black == m.Black.ID && r.White == m.White.ID {
		return StatusSeated
	}
	return StatusFailed
}
