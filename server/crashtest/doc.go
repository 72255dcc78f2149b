// Package crashtest holds crash, Redis-restart and multi-node chaos tests that run the
// real gomokud binary as child processes against real redis-server processes
// (GOMOKU_INTEGRATION=1). Players and spectators are wstest clients (server/wstest):
// each keeps its log and view across reconnections for the assertions.
//
// Also here: games across a local Redis Cluster (TestClusterGames; a master failover in
// TestClusterMasterFailover) and the compose load balancer's own Caddyfile (inline in docker-compose.yml) run
// with caddy in front of two nodes (TestLoadBalancerCaddyfile, skipped without caddy).
// CRASHTEST_SEED repeats a run; CRASHTEST_GOMOKUD tests a prebuilt binary.
package crashtest
