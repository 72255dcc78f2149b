package room_test

import (
	"context"
	"fmt"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Example drives a room: create it, seat two players, play to five and read the events.
func Example() {
	ctx := context.Background()
	m := room.NewManager(room.NewMemStore(), room.Options{})
	defer m.Shutdown(ctx)

	alice := room.Player{ID: "p_alice", Name: "Alice"}
	bob := room.Player{ID: "p_bob", Name: "Bob"}
	r, err := m.Create(ctx, room.CreateRequest{Settings: room.DefaultSettings(), Creator: &alice, Color: "black"})
	if err != nil {
		panic(err)
	}
	sub, err := r.Subscribe(ctx, room.SubscribeOptions{FromSeq: 1, Viewer: bob})
	if err != nil {
		panic(err)
	}
	defer sub.Close()
	if _, err := r.Do(ctx, room.Command{Kind: room.CmdSit, By: bob, Color: "white"}); err != nil {
		panic(err)
	}
	moves := []string{"h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4", "h12"}
	for ply, p := range moves {
		by := alice
		if ply%2 == 1 {
			by = bob
		}
		rep, err := r.Do(ctx, room.Command{Kind: room.CmdMove, By: by, Ply: ply, Point: p})
		if err != nil {
			panic(err)
		}
		_ = rep.Seq // acknowledged: stored with this seq
	}
	// A wrong move is refused with a stable code and changes nothing.
	_, err = r.Do(ctx, room.Command{Kind: room.CmdMove, By: bob, Ply: 9, Point: "b1"})
	fmt.Println("refused:", protocol.Code(err))

	for u := range sub.C {
		if u.Event == nil {
			continue // ephemeral presence updates
		}
		e := u.Event
		switch e.Kind {
		case room.EvMove:
			fmt.Println(e.Seq, e.Kind, e.Color, e.Point)
		case room.EvGameOver:
			fmt.Println(e.Seq, e.Kind, e.Result, e.Reason, e.Line)
			return
		default:
			fmt.Println(e.Seq, e.Kind)
		}
	}
	// Output:
	// refused: game_over
	// 2 seated
	// 3 seated
	// 4 started
	// 5 move black h8
	// 6 move white a1
	// 7 move black h9
	// 8 move white a2
	// 9 move black h10
	// 10 move white a3
	// 11 move black h11
	// 12 move white a4
	// 13 move black h12
	// 14 game_over black five [h8 h9 h10 h11 h12]
}
