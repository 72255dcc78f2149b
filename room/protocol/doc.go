// Package protocol is the wire protocol of Gomoku Arena, defined once: the client
// messages and their one decoder (Decode), the server message frames, the stable error
// codes with their HTTP statuses, and Error, the one client-facing error type.
// docs/protocol.md is its prose; TestDocumentedCodes keeps the two in step.
//
// It lives under room/ because room is the lowest package that speaks to clients: its
// refusals are protocol errors with stable codes, so room imports protocol, and protocol
// imports nothing of this module but engine (for the board's limits). The server, the
// load tool (cmd/gomoku/internal/load), the crash tests (server/crashtest) and the
// shared WebSocket test client all sit above room and import it without cycles.
//
// The payloads of event, snapshot, ai, presence and hint frames are room's types
// (room.Event, room.Snapshot, room.AIProgress, room.Presence, room.Hint): they are
// the room's state and change with it; this package frames them.
package protocol
