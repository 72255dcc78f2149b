// Package server is the edge of Gomoku Arena: the Echo HTTP API, the WebSocket game
// protocol, identity tokens, abuse limits, metrics, health and graceful shutdown, over the
// room layer (package room) and its Redis store. docs/protocol.md is the wire contract.
//
// # Running a full server in-process
//
// New builds everything from a Config (Redis from cfg.RedisURL, or an embedded in-memory
// Redis when it is empty; migrations; the room manager). Tests, including the browser
// tests, start one on a random port like this:
//
//	cfg := server.DefaultConfig()
//	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil)) // required by New
//	cfg.MaxConnsPerIP = 0                                      // many tabs from 127.0.0.1
//	srv, err := server.New(ctx, cfg)
//	if err != nil { … }
//	ln, _ := net.Listen("tcp", "127.0.0.1:0")
//	go srv.Start(ln)                        // returns nil after Shutdown
//	base := "http://" + ln.Addr().String()  // web app at /, API at /api, WS at /ws/rooms/{id}
//	defer srv.Shutdown(context.Background())
//
// Handler returns the http.Handler for use with httptest.NewServer instead of Start.
// NewWith builds a Server over injected dependencies (a Rooms implementation such as
// ManagerRooms, and Players).
//
// # Structure
//
//   - config.go: Config and its defaults; cmd/gomokud maps flags and environment to it.
//   - The wire protocol (message types, the decoder, error codes and their HTTP
//     statuses) is room/protocol.
//   - Errors: handlers and the room return plain errors; protocol.Error (room/protocol)
//     carries the stable code. Server.edgeError (server.go) turns any error into what
//     the client is told, logging the causes that are not the client's fault; only
//     http.go and conn.go write errors to clients.
//   - http.go: routes (HEAD wherever GET; another method on a known route is 405 with
//     Allow), JSON handlers; create.go validates POST /api/rooms.
//   - web.go: what every response carries (Content-Security-Policy and the other
//     security headers, gzip) and the web app: the page, the embedded assets with ETags
//     (immutable under frontend.Version's prefix) and the HTML 404 of unknown pages.
//   - identity.go: player tokens (192 random bits; only the SHA-256 is stored, in Redis)
//     and renaming.
//   - conn.go, conn_writer.go: one WebSocket connection = two goroutines, as in
//     gorilla's chat example: the reader (conn.serve, started by the upgrade handler,
//     which then returns) reads, decodes and runs the client's commands under the
//     connection's context; the writer (conn.writeLoop) sends the replies from a bounded
//     send queue, the room's updates from the session's bounded queue (as bytes: the
//     room encodes each update once, room.Update.Frames), a ping every PingPeriod and
//     the close. A full queue drops the client (1013 slow_consumer), never
//     blocks the room. Write deadlines (writeWait), PongWait, read limit, token-bucket
//     rate limit.
//   - limits.go: per-IP cap, POST rate per IP, Origin allow-list, and the client IP
//     (X-Forwarded-For only from Config.TrustedProxies).
//   - Several nodes on one Redis (room watchers, the presence and AI-progress relay
//     between nodes, room leases) are package room/replica; open.go plugs its Node into
//     the Manager, and GET /admin/rooms/:id/holder shows which node holds a room.
//   - rooms.go: the Rooms interface, the room layer as the edge sees it;
//     manager_rooms.go: ManagerRooms, its implementation on room.Manager (store:
//     room/roomstore over room/eventlog); record.go writes PSQ and SGF records; open.go builds it all and
//     restores unfinished rooms at start-up; migrate.go runs migrations.
//   - metrics.go: Prometheus metrics on the server's own registry (GET /metrics).
//
// Shutdown stops accepting, closes every WebSocket with 1001 (clients reconnect with their
// last seq), stops the rooms and closes Redis, within the context's deadline.
package server
