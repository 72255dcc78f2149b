package room

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

func BenchmarkApplyMove(b *testing.B) {
	s := play(b, seated(b, func(s *Settings) { s.Time = TimeControl{BaseMS: 300_000, IncrementMS: 2_000} }),
		"h8", "i9", "h9", "i10", "g7", "j8", "f6", "e5", "k9", "l10")
	cmd := Command{Kind: CmdMove, By: alice, Ply: s.Ply(), Point: "m12"}
	now := t0.Add(time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Apply(s, cmd, now); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplayGame(b *testing.B) {
	s := finished(b)
	_, first, _ := NewState("r1", s.Settings(), t0)
	log := []Event{first}
	st := created(b, nil)
	for _, c := range []Command{{Kind: CmdSit, By: alice, Color: "black"}, {Kind: CmdSit, By: bob, Color: "white"}} {
		var evs []Event
		st, evs = apply(b, st, c, t0)
		log = append(log, evs...)
	}
	for i, p := range []string{"h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"} {
		by := alice
		if i%2 == 1 {
			by = bob
		}
		var evs []Event
		st, evs = apply(b, st, Command{Kind: CmdMove, By: by, Ply: i, Point: p}, t0)
		log = append(log, evs...)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Replay(log); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(log)), "events/op")
}

// BenchmarkActorCommand measures a command's round trip through the actor with the
// in-memory store: a move, a takeback request and its acceptance per op.
func BenchmarkActorCommand(b *testing.B) {
	m := NewManager(NewMemStore(), Options{})
	defer m.Shutdown(context.Background())
	ctx := context.Background()
	r, err := m.Create(ctx, CreateRequest{Settings: DefaultSettings(), Creator: &alice, Color: "black"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := r.Do(ctx, Command{Kind: CmdSit, By: bob, Color: "white"}); err != nil {
		b.Fatal(err)
	}
	sub, _ := r.Subscribe(ctx, SubscribeOptions{Viewer: carol, Queue: 1 << 16})
	go func() {
		for range sub.C {
		}
	}()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range []Command{{Kind: CmdMove, By: alice, Point: "h8"}, {Kind: CmdTakebackRequest, By: alice},
			{Kind: CmdTakebackAccept, By: bob}} {
			if _, err := r.Do(ctx, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(3, "commands/op")
}

// sleepPlayer thinks for a fixed time (or until cancelled) and plays the first empty point.
type sleepPlayer struct{ think time.Duration }

func (p sleepPlayer) Name() string { return "sleep" }
func (p sleepPlayer) Play(ctx context.Context, b *engine.Board, l engine.Limits, progress func(engine.Info)) (engine.Result, error) {
	t := time.NewTimer(p.think)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return engine.Result{Move: firstEmpty(b)}, nil
}

// busyPlayer burns CPU for a fixed time, like a real search on its own core.
type busyPlayer struct{ think time.Duration }

func (p busyPlayer) Name() string { return "busy" }
func (p busyPlayer) Play(ctx context.Context, b *engine.Board, l engine.Limits, progress func(engine.Info)) (engine.Result, error) {
	end := time.Now().Add(p.think)
	x := 0
	for time.Now().Before(end) && ctx.Err() == nil {
		for i := range 10000 {
			x += i
		}
	}
	_ = x
	return engine.Result{Move: firstEmpty(b)}, nil
}

// BenchmarkAIUnderLoad runs `rooms` human-vs-AI rooms at once on a scheduler with
// NumCPU slots; each human answers instantly, so the AI seats keep the scheduler
// saturated. It reports AI moves per second and the AI reply latency (human move
// acknowledged → AI move event) at the median and 95th percentile.
func BenchmarkAIUnderLoad(b *testing.B) {
	slots := runtime.NumCPU()
	for _, kind := range []string{"busy10ms", "engine-beginner"} {
		for _, rooms := range []int{slots, 4 * slots, 16 * slots} {
			b.Run(fmt.Sprintf("%s/slots=%d/rooms=%d", kind, slots, rooms), func(b *testing.B) {
				players := func(SeatSpec) (engine.Player, error) { return busyPlayer{10 * time.Millisecond}, nil }
				var limits func(engine.Limits) engine.Limits
				if kind == "engine-beginner" {
					players = DefaultPlayers
					limits = func(l engine.Limits) engine.Limits { l.Time = 20 * time.Millisecond; return l }
				}
				aiLoad(b, rooms, NewScheduler(slots, 1<<20), players, limits)
			})
		}
	}
}

func aiLoad(b *testing.B, rooms int, sched *Scheduler, players PlayerResolver, limits func(engine.Limits) engine.Limits) {
	ctx := context.Background()
	m := NewManager(NewMemStore(), Options{Scheduler: sched, Players: players, AILimits: limits})
	defer m.Shutdown(ctx)
	movesPer := max(1, b.N/rooms)
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for i := range rooms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			set := DefaultSettings()
			set.Size = 20
			set.White = SeatSpec{Kind: AI, Level: "beginner"}
			me := Player{ID: fmt.Sprintf("p%d", i), Name: "h"}
			r, err := m.Create(ctx, CreateRequest{Settings: set, Creator: &me, Color: "black"})
			if err != nil {
				b.Error(err)
				return
			}
			sub, _ := r.Subscribe(ctx, SubscribeOptions{Viewer: me, FromSeq: r.State().Seq()})
			defer sub.Close()
			for range movesPer {
				st := r.State()
				if st.Phase() != PhasePlaying {
					if _, err := r.Do(ctx, Command{Kind: CmdRematch, By: me}); err != nil {
						return
					}
					st = r.State()
					if st.ToMove() != st.ColorOf(me.ID) { // the AI has black: wait for its move
						waitAI(sub, st.ToMove().String())
						st = r.State()
					}
				}
				p := firstEmpty(st.Board())
				t := time.Now()
				if _, err := r.Do(ctx, Command{Kind: CmdMove, By: me, Ply: st.Ply(), Point: p.String()}); err != nil {
					continue
				}
				if r.State().Phase() != PhasePlaying {
					continue
				}
				waitAI(sub, st.ColorOf(me.ID).Opponent().String())
				mu.Lock()
				lat = append(lat, time.Since(t))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(len(lat))/el.Seconds(), "aimoves/s")
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50_ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95_ms")
}

// waitAI waits for the next move of colour ai (or the game's end) on sub.
func waitAI(sub *Subscription, ai string) {
	for u := range sub.C {
		if e := u.Event; e != nil && (e.Kind == EvGameOver || (e.Kind == EvMove && e.Color == ai)) {
			return
		}
	}
}

// BenchmarkEncodeEvent is the cost of encoding one move event's frame, which the room
// does once per broadcast whatever the number of subscribers.
func BenchmarkEncodeEvent(b *testing.B) {
	ev := &Event{Seq: 42, Kind: EvMove, At: 1764440000000, Game: 1, Color: "black", Point: "h8", Ply: 17, ClockMS: 281000}
	b.ReportAllocs()
	for b.Loop() {
		_ = Update{Event: ev}.Encoded()
	}
}
