// Command memprobe measures the memory a running gomokud spends per idle WebSocket
// connection: it reads the server's /metrics, opens n spectator connections to one room
// (hello sent, then idle), waits, and reads /metrics again.
//
//	GOMOKU_MAX_CONNS_PER_IP=0 go run ./cmd/gomokud -addr 127.0.0.1:28412 &
//	go run ./server/internal/memprobe http://127.0.0.1:28412 2000
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/server/wstest"
)

func metric(base, name string) float64 {
	res, err := http.Get(base + "/metrics")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, name+" ") {
			v, _ := strconv.ParseFloat(strings.Fields(l)[1], 64)
			return v
		}
	}
	return 0
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: memprobe http://host:port connections")
		os.Exit(2)
	}
	base := os.Args[1]
	n, _ := strconv.Atoi(os.Args[2])
	var p struct{ Token string }
	res, _ := http.Post(base+"/api/players", "application/json", bytes.NewReader([]byte(`{"name":"probe"}`)))
	json.NewDecoder(res.Body).Decode(&p)
	var r struct{ Room struct{ ID string } }
	req, _ := http.NewRequest("POST", base+"/api/rooms", bytes.NewReader([]byte(`{"me":"black"}`)))
	req.Header.Set("Authorization", "Bearer "+p.Token)
	res, _ = http.DefaultClient.Do(req)
	json.NewDecoder(res.Body).Decode(&r)
	time.Sleep(time.Second)
	rss0, heap0 := metric(base, "process_resident_memory_bytes"), metric(base, "go_memstats_heap_inuse_bytes")
	st0 := metric(base, "go_memstats_stack_inuse_bytes")
	conns := make([]*wstest.Client, 0, n)
	for i := 0; i < n; i++ {
		c, err := wstest.Dial(context.Background(), base, r.Room.ID, nil)
		if err != nil {
			panic(err)
		}
		if err := c.Send(protocol.ClientMsg{Type: protocol.TypeHello}); err != nil {
			panic(err)
		}
		conns = append(conns, c)
	}
	time.Sleep(3 * time.Second)
	rss1, heap1 := metric(base, "process_resident_memory_bytes"), metric(base, "go_memstats_heap_inuse_bytes")
	st1 := metric(base, "go_memstats_stack_inuse_bytes")
	fmt.Printf("connections %v: per idle connection RSS %.1f KiB, heap %.1f KiB, stacks %.1f KiB\n", metric(base, "gomoku_ws_connections"),
		(rss1-rss0)/float64(n)/1024, (heap1-heap0)/float64(n)/1024, (st1-st0)/float64(n)/1024)
}
