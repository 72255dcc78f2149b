package ledger

import (
	"strconv"
	"strings"
)

// Every key of the ledger carries the hash tag {ratings}: one game's record, both
// players' ratings, histories and game indexes, the leaderboards and the outbox live
// in one Redis Cluster slot, so the one script that records a game may touch them all
// (a rated game changes two players at once, and any two players may meet).
const (
	keyBase    = "gomoku:{ratings}:"
	KeyPending = keyBase + "pending" // zset: "<room>:<game>" → game end (Unix ms), the outbox
)

// ResultKey is the record of game number game of room id (string, JSON Record).
func ResultKey(room string, game int) string {
	return keyBase + "result:" + room + ":" + strconv.Itoa(game)
}

// PlayerKey is a player's hash: one field per pool (JSON PoolRating) and "_name".
func PlayerKey(id string) string { return keyBase + "p:" + id }

// GamesKey is a player's game index (zset: JSON GameEntry → end time, Unix ms).
func GamesKey(id string) string { return keyBase + "p:" + id + ":games" }

// HistoryKey is a player's rating history in a pool (list of JSON Point, oldest first).
func HistoryKey(id, pool string) string { return keyBase + "p:" + id + ":hist:" + pool }

// TopKey is a pool's leaderboard (zset: player id → rating; established ratings only).
func TopKey(pool string) string { return keyBase + "top:" + pool }

func pendingMember(room string, game int) string { return room + ":" + strconv.Itoa(game) }

// parsePending splits an outbox member (the room id may itself hold colons).
func parsePending(m string) (room string, game int, ok bool) {
	i := strings.LastIndexByte(m, ':')
	if i <= 0 {
		return "", 0, false
	}
	g, err := strconv.Atoi(m[i+1:])
	if err != nil || g < 1 {
		return "", 0, false
	}
	return m[:i], g, true
}

// validID rejects ids that would break the hash tag or the key grammar.
func validID(id string) bool {
	return id != "" && len(id) <= 128 && !strings.ContainsAny(id, "{}\x00\r\n\t ")
}
