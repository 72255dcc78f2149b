package puzzles

import (
	"context"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/engine/puzzle"
)

// nextWindows are the rating distances Next looks within, nearest first.
var nextWindows = []float64{100, 200, 400, 800, math.Inf(1)}

// nextBatch bounds how many puzzles of one window Next reads.
const nextBatch = 200

// Next chooses a puzzle of rule for player: one rated near the player's puzzle rating
// (the nearest window holding any) that the player has not attempted within the
// recent period, picked at random in that window; when the player has attempted every
// puzzle of the rule recently, the one attempted longest ago. ErrNoSuchPuzzle when the
// rule has no puzzles.
func (s *Store) Next(ctx context.Context, player, rule string) (puzzle.Puzzle, Stats, error) {
	pr, err := s.PlayerRating(ctx, player)
	if err != nil {
		return puzzle.Puzzle{}, Stats{}, err
	}
	cut := s.now().Add(-s.recent).UnixMilli()
	recent, err := s.c.ZRangeByScoreWithScores(ctx, PlayedKey(player), &redis.ZRangeBy{
		Min: strconv.FormatInt(cut, 10), Max: "+inf"}).Result()
	if err != nil {
		return puzzle.Puzzle{}, Stats{}, wrap("next: played", err)
	}
	played := make(map[string]float64, len(recent))
	for _, z := range recent {
		if m, ok := z.Member.(string); ok {
			played[m] = z.Score
		}
	}
	var oldest string
	oldestAt := math.Inf(1)
	for _, w := range nextWindows {
		ids, err := s.window(ctx, rule, pr.R, w)
		if err != nil {
			return puzzle.Puzzle{}, Stats{}, err
		}
		var fresh []string
		for _, id := range ids {
			if at, ok := played[id]; ok {
				if at < oldestAt {
					oldest, oldestAt = id, at
				}
				continue
			}
			fresh = append(fresh, id)
		}
		if len(fresh) > 0 {
			return s.Puzzle(ctx, fresh[rand.IntN(len(fresh))])
		}
	}
	if oldest == "" {
		return puzzle.Puzzle{}, Stats{}, ErrNoSuchPuzzle
	}
	return s.Puzzle(ctx, oldest)
}

// window returns the puzzles of rule rated within w of r: the nearest nextBatch/2
// at or above r and the nearest nextBatch/2 below.
func (s *Store) window(ctx context.Context, rule string, r, w float64) ([]string, error) {
	lo, hi := "-inf", "+inf"
	if !math.IsInf(w, 1) {
		lo, hi = strconv.FormatFloat(r-w, 'f', 2, 64), strconv.FormatFloat(r+w, 'f', 2, 64)
	}
	key := IndexKey(rule)
	// Half the batch from each side of r, so that a crowded side does not hide the other.
	above, err := s.c.ZRangeByScore(ctx, key, &redis.ZRangeBy{Min: strconv.FormatFloat(r, 'f', 2, 64), Max: hi, Count: nextBatch / 2}).Result()
	if err != nil {
		return nil, wrap("next: index", err)
	}
	below, err := s.c.ZRevRangeByScore(ctx, key, &redis.ZRangeBy{Min: lo, Max: "(" + strconv.FormatFloat(r, 'f', 2, 64), Count: nextBatch / 2}).Result()
	if err != nil {
		return nil, wrap("next: index", err)
	}
	return append(above, below...), nil
}
