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
// from the side to move's view. One game in ten (chosen by seed) goes to validation.
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
	Changed                 int     // parameters that changed
	Step                    int     // the fitting step kept (the one with the lowest validation loss)
	SkippedNoData           bool
}

// TuneConfig configures Tune.
type TuneConfig struct {
	Fit FitConfig
	// Progress, if set, is called after every fitting step of every rule.
	Progress func(r engine.Rule, step int, loss float64)
}

// Tune fits each rule's parameters of init to its data and returns the new tables. The
// scale k is fitted to the initial parameters first and then held, so the fitted
// evaluation keeps the units of the initial one (the search's margins and the levels'
// noise are in those units). Rules without data keep their parameters.
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
		rep.TrainBefore, rep.ValidBefore = Loss(d.Train, start, rep.Scale), Loss(d.Valid, start, rep.Scale)
		fc := cfg.Fit
		if cfg.Progress != nil {
			fc.Progress = func(step int, loss float64) { cfg.Progress(r, step, loss) }
		}
		fc.Valid = d.Valid
		w, step := Fit(d.Train, start, rep.Scale, fc)
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
		rep.TrainAfter, rep.ValidAfter = Loss(d.Train, rounded, rep.Scale), Loss(d.Valid, rounded, rep.Scale)
		params[r] = fitted
		reports = append(reports, rep)
	}
	t, err := engine.NewEvalTables(params)
	return t, reports, err
}
