package tune

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gomoku-arena/gomoku/engine"
)

// RuleData is one rule's samples, split into training and validation games.
type RuleData struct {
	Train, Valid []Sample
	Games        int
}

// Samples turns games into samples per rule: every position after the random opening
// that the static evaluation judges (engine.EvalFeaturizer), labelled with the result
// from the side to move's view and, when the game has them, the position's search
// score. One game in ten (chosen by seed) goes to validation.
// progress, if set, is called after each game.
func Samples(games []Game, seed uint64, progress func()) ([3]RuleData, error) {
	var out [3]RuleData
	var fz engine.EvalFeaturizer
	rng := rand.New(rand.NewPCG(seed, 0x7e57))
	var buf []engine.EvalFeature
	for gi, g := range games {
		valid := rng.IntN(10) == 0
		d := &out[g.Rule]
		d.Games++
		b, err := engine.NewBoard(g.Size, g.Rule)
		if err != nil {
			return out, err
		}
		for ply, m := range g.Moves {
			if ply >= g.Opening {
				var ok bool
				buf, ok = fz.Features(b, buf[:0])
				if ok {
					s := Sample{Feats: make([]Feature, len(buf)), Result: 0.5}
					for i, f := range buf {
						s.Feats[i] = Feature{Param: uint16(f.Param), Coef: float32(f.Coef)}
					}
					if len(g.Scores) > 0 {
						s.Score, s.Scored = float32(g.Scores[ply-g.Opening]), true
					}
					switch g.Winner {
					case b.ToMove():
						s.Result = 1
					case b.ToMove().Opponent():
						s.Result = 0
					}
					if valid {
						d.Valid = append(d.Valid, s)
					} else {
						d.Train = append(d.Train, s)
					}
				}
			}
			if err := b.Play(m); err != nil {
				return out, fmt.Errorf("tune: game %d: %w", gi+1, err)
			}
		}
		if progress != nil {
			progress()
		}
	}
	return out, nil
}

// RuleReport is what tuning one rule did.
type RuleReport struct {
	Rule                    engine.Rule
	Games, Train, Valid     int
	Scale                   float64 // k of the sigmoid, fitted to the initial tables
	TrainBefore, TrainAfter float64 // training loss with the initial and the fitted tables
	ValidBefore, ValidAfter float64 // the same on the validation games
	Scored                  int     // training samples with a search score
	Changed                 int     // parameters that changed
	Step                    int     // the fitting step kept (the one with the lowest validation loss)
	SkippedNoData           bool
}

// TuneConfig configures Tune.
type TuneConfig struct {
	Fit FitConfig
	// ScoreWeight is the weight of a sample's search score in its target: the target
	// is (1 − ScoreWeight) × result + ScoreWeight × σ(score / k), with k the scale
	// fitted to the results. 0 (the default): the game results alone. Samples
	// without a score keep their result. A score sees what the position holds at
	// once, a result only what the rest of the game made of it, so the blend is a
	// far less noisy target per position.
	ScoreWeight float64
	// ScoreScale, when above 0, is the scale of the scores' sigmoid in place of k:
	// σ(score / ScoreScale) is the win rate a score stands for. For scores in
	// another engine's units, such as a teacher's (Label). 0 (the default): k.
	ScoreScale float64
	// Progress, if set, is called after every fitting step of every rule.
	Progress func(r engine.Rule, step int, loss float64)
}

// Tune fits each rule's parameters of init to its data and returns the new tables. The
// scale k is fitted to the initial parameters and the results first and then held, so
// the fitted evaluation keeps the units of the initial one (the search's margins and
// the levels' noise are in those units); the targets are then blended with the search
// scores (cfg.ScoreWeight). Rules without data keep their parameters. data is not
// modified.
func Tune(data [3]RuleData, init *engine.EvalTables, cfg TuneConfig) (*engine.EvalTables, []RuleReport, error) {
	var params [3][]int32
	var reports []RuleReport
	for r := engine.Freestyle; r <= engine.Renju; r++ {
		d := &data[r]
		w0 := init.Params(r)
		params[r] = w0
		rep := RuleReport{Rule: r, Games: d.Games, Train: len(d.Train), Valid: len(d.Valid)}
		if len(d.Train) == 0 {
			rep.SkippedNoData = true
			reports = append(reports, rep)
			continue
		}
		start := make([]float64, len(w0))
		for i, v := range w0 {
			start[i] = float64(v)
		}
		rep.Scale = FitScale(d.Train, start)
		scoreScale := rep.Scale
		if cfg.ScoreScale > 0 {
			scoreScale = cfg.ScoreScale
		}
		train, scored := blendTargets(d.Train, scoreScale, cfg.ScoreWeight)
		valid, _ := blendTargets(d.Valid, scoreScale, cfg.ScoreWeight)
		rep.Scored = scored
		rep.TrainBefore, rep.ValidBefore = Loss(train, start, rep.Scale), Loss(valid, start, rep.Scale)
		fc := cfg.Fit
		if cfg.Progress != nil {
			fc.Progress = func(step int, loss float64) { cfg.Progress(r, step, loss) }
		}
		fc.Valid = valid
		w, step := Fit(train, start, rep.Scale, fc)
		rep.Step = step
		fitted := make([]int32, len(w))
		for i, v := range w {
			fitted[i] = int32(math.Round(v))
			if fitted[i] != w0[i] {
				rep.Changed++
			}
		}
		rounded := make([]float64, len(w))
		for i, v := range fitted {
			rounded[i] = float64(v)
		}
		rep.TrainAfter, rep.ValidAfter = Loss(train, rounded, rep.Scale), Loss(valid, rounded, rep.Scale)
		params[r] = fitted
		reports = append(reports, rep)
	}
	t, err := engine.NewEvalTables(params)
	return t, reports, err
}

// blendTargets returns samples whose targets mix the result with σ(score / k) by
// weight (the input is returned as is for weight 0), and how many have a score.
func blendTargets(samples []Sample, k, weight float64) ([]Sample, int) {
	scored := 0
	for i := range samples {
		if samples[i].Scored {
			scored++
		}
	}
	if weight == 0 || scored == 0 {
		return samples, scored
	}
	out := make([]Sample, len(samples))
	for i, s := range samples {
		if s.Scored {
			s.Result = (1-weight)*s.Result + weight*sigmoid(float64(s.Score), k)
		}
		out[i] = s
	}
	return out, scored
}
