package pairing

import "github.com/redis/go-redis/v9"

// The scripts share these Lua helpers. Every key they touch carries the {seeks} tag;
// the keys of other seekers are built from the prefix (ARGV) inside the script, which
// Redis Cluster allows because they hash to the same slot as the declared keys.
//
// rng(wait_ms) is Rules.Range; ns is a netstring (len:value), the encoding of a match
// (decodeMatch) that needs no cjson and survives any name.
const luaCommon = `
local function rng(wait, ini, per, max)
  if wait < 0 then wait = 0 end
  local r = ini + per * wait / 1000
  if r > max then r = max end
  return r
end
local function ns(s) return string.len(s) .. ':' .. s end
-- live returns since, rating, name of a seeker still waiting (nil when its seek is
-- gone or already matched).
local function live(prefix, id)
  local h = redis.call('HMGET', prefix .. id, 'since', 'rating', 'name', 'match')
  if not h[1] or h[4] then return nil end
  return tonumber(h[1]), tonumber(h[2]), h[3]
end
-- pair stores the match of a (black) and b (white), takes both out of the pool and
-- indexes the match as unsettled, at now (the caller seats it; Settle records and
-- publishes the outcome and takes it out of the index).
local function pair(seekp, poolkey, poolsk, matchk, now, pool, mttl, room, a, ar, an, b, br, bn)
  local m = ns(room) .. ns(pool) .. ns(a) .. ns(an) .. ns(ar) .. ns(b) .. ns(bn) .. ns(br)
  for _, id in ipairs({a, b}) do
    redis.call('HSET', seekp .. id, 'match', m)
    redis.call('PEXPIRE', seekp .. id, mttl)
    redis.call('ZREM', poolkey, id)
  end
  if redis.call('ZCARD', poolkey) == 0 then redis.call('SREM', poolsk, pool) end
  redis.call('ZADD', matchk, now, m)
  return m
end
-- pending reports whether a seek's match (h: match, outcome) awaits its outcome: none
-- recorded, or a failure claimed whose room is still being closed.
local function pending(h)
  return h[1] and (not h[2] or h[2] == 'failing')
end
`

// seekScript adds (or replaces) a seek and pairs it with the closest compatible
// seeker of its pool, if any.
//
//	KEYS[1] the seek hash, KEYS[2] the pool zset, KEYS[3] the pools set, KEYS[4] the
//	        unsettled matches
//	ARGV player, pool, rating, name, nonce, now ms, ttl ms, initial, per second, max,
//	     room id, black first (1: the newcomer is black), seek prefix, pool prefix,
//	     matched ttl ms
//
// Returns the match, "" (seeking), or "P" followed by the player's previous match when
// that one is still being seated (nothing changed: its outcome decides).
var seekScript = redis.NewScript(luaCommon + `
local id, pool, rating, name = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local now, ini, per, max = tonumber(ARGV[6]), tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local seekp, poolp = ARGV[13], ARGV[14]
local prev = redis.call('HMGET', KEYS[1], 'match', 'outcome')
if pending(prev) then return 'P' .. prev[1] end
local old = redis.call('HGET', KEYS[1], 'pool')
if old then
  redis.call('ZREM', poolp .. old, id)
  if redis.call('ZCARD', poolp .. old) == 0 then redis.call('SREM', KEYS[3], old) end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'pool', pool, 'rating', ARGV[3], 'name', name, 'nonce', ARGV[5], 'since', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
local best, bd, bs, br, bn
local cands = redis.call('ZRANGEBYSCORE', KEYS[2], rating - max, rating + max)
for _, c in ipairs(cands) do
  local since, cr, cn = live(seekp, c)
  if not since then
    redis.call('ZREM', KEYS[2], c)
  else
    local d = math.abs(cr - rating)
    if d <= rng(now - since, ini, per, max) and (not best or d < bd or (d == bd and since < bs)) then
      best, bd, bs, br, bn = c, d, since, cr, cn
    end
  end
end
if not best then
  redis.call('ZADD', KEYS[2], rating, id)
  redis.call('SADD', KEYS[3], pool)
  return ''
end
if ARGV[12] == '1' then
  return pair(seekp, KEYS[2], KEYS[3], KEYS[4], ARGV[6], pool, ARGV[15], ARGV[11], id, ARGV[3], name, best, tostring(br), bn)
end
return pair(seekp, KEYS[2], KEYS[3], KEYS[4], ARGV[6], pool, ARGV[15], ARGV[11], best, tostring(br), bn, id, ARGV[3], name)
`)

// sweepScript pairs the seekers whose ranges have widened enough since they came:
// in each pool, from the lowest rating up, each waiting seeker with the closest
// compatible one above it. It drops entries whose seek is gone.
//
//	KEYS[1] the pools set, KEYS[2] the unsettled matches
//	ARGV now ms, initial, per second, max, seek prefix, pool prefix, matched ttl ms,
//	     then room ids, each followed by its colour coin (1: lower rating black)
//
// Returns the matches made (at most one per room id given).
var sweepScript = redis.NewScript(luaCommon + `
local now, ini, per, max = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local seekp, poolp, mttl = ARGV[5], ARGV[6], ARGV[7]
local nx = 8
local out = {}
for _, pool in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = poolp .. pool
  local ids = redis.call('ZRANGE', key, 0, -1)
  local s = {}
  for _, id in ipairs(ids) do
    local since, r, n = live(seekp, id)
    if since then
      s[#s + 1] = {id = id, since = since, r = r, n = n}
    else
      redis.call('ZREM', key, id)
    end
  end
  local used = {}
  for i = 1, #s do
    if nx > #ARGV then break end
    if not used[i] then
      local a = s[i]
      for j = i + 1, #s do
        local b = s[j]
        local d = b.r - a.r
        if d > max then break end
        if not used[j] then
          local since = a.since
          if b.since < since then since = b.since end
          if d <= rng(now - since, ini, per, max) then
            used[i], used[j] = true, true
            local room, coin = ARGV[nx], ARGV[nx + 1]
            nx = nx + 2
            if coin == '1' then
              out[#out + 1] = pair(seekp, key, KEYS[1], KEYS[2], ARGV[1], pool, mttl, room, a.id, tostring(a.r), a.n, b.id, tostring(b.r), b.n)
            else
              out[#out + 1] = pair(seekp, key, KEYS[1], KEYS[2], ARGV[1], pool, mttl, room, b.id, tostring(b.r), b.n, a.id, tostring(a.r), a.n)
            end
            break
          end
        end
      end
    end
  end
  if redis.call('ZCARD', key) == 0 then redis.call('SREM', KEYS[1], pool) end
end
return out
`)

// cancelScript deletes a seek unless it is matched.
//
//	KEYS[1] the seek hash, KEYS[2] the pools set
//	ARGV player, nonce, pool prefix
//
// Returns {status, match}: status "gone" (no seek: expired or cancelled), "replaced"
// (the player seeks from another connection), "matched" (match set, being seated, or
// its failure claimed and its room being closed), "seated" or "failed" (the match's
// outcome, match set) or "cancelled".
var cancelScript = redis.NewScript(luaCommon + `
local h = redis.call('HMGET', KEYS[1], 'nonce', 'pool', 'match', 'outcome')
if not h[1] then return {'gone', ''} end
if h[1] ~= ARGV[2] then return {'replaced', ''} end
if pending({h[3], h[4]}) then return {'matched', h[3]} end
if h[3] then return {h[4], h[3]} end
local key = ARGV[3] .. h[2]
redis.call('ZREM', key, ARGV[1])
if redis.call('ZCARD', key) == 0 then redis.call('SREM', KEYS[2], h[2]) end
redis.call('DEL', KEYS[1])
return {'cancelled', ''}
`)

// renewScript is the heartbeat of a batch of seeks: each seek still owned by its nonce
// and not matched has its expiry renewed, in one call for all of a node's seeks.
//
//	KEYS the seek hashes
//	ARGV ttl ms, then one nonce per key
//
// Returns, per key, status then match: "gone", "replaced", "matched", "seated" and
// "failed" as for cancelScript, or "ok" (renewed).
var renewScript = redis.NewScript(luaCommon + `
local out = {}
for i, key in ipairs(KEYS) do
  local h = redis.call('HMGET', key, 'nonce', 'match', 'outcome')
  if not h[1] then
    out[#out + 1], out[#out + 2] = 'gone', ''
  elseif h[1] ~= ARGV[i + 1] then
    out[#out + 1], out[#out + 2] = 'replaced', ''
  elseif pending({h[2], h[3]}) then
    out[#out + 1], out[#out + 2] = 'matched', h[2]
  elseif h[2] then
    out[#out + 1], out[#out + 2] = h[3], h[2]
  else
    redis.call('PEXPIRE', key, ARGV[1])
    out[#out + 1], out[#out + 2] = 'ok', ''
  end
end
return out
`)

// settleScript records the outcome of a match in both seek hashes (the heartbeats and
// cancels of any node read it there), once (see Store.Settle): "seated" and "failed"
// are final, published, and take the match out of the unsettled index; "failing"
// claims a failure without telling anyone (its room is closed before "failed"). A side
// whose seek no longer holds the match (it ran out: its page was told so) turns
// "seated" into "failing", so nobody is seated opposite a player who was told the
// match did not happen.
//
//	KEYS[1], KEYS[2] the seek hashes of black and white, KEYS[3] the unsettled matches
//	ARGV the match (encoded), the outcome ("seated", "failing" or "failed"), the channel
//
// Returns the recorded outcome.
var settleScript = redis.NewScript(luaCommon + `
local have, failing = {}, false
for i = 1, 2 do
  local h = redis.call('HMGET', KEYS[i], 'match', 'outcome')
  if h[1] == ARGV[1] then
    if h[2] == 'seated' or h[2] == 'failed' then return h[2] end
    if h[2] == 'failing' then failing = true end
    have[#have + 1] = KEYS[i]
  end
end
local o = ARGV[2]
if o == 'seated' and (failing or #have < 2) then o = 'failing' end
for _, key in ipairs(have) do redis.call('HSET', key, 'outcome', o) end
if o == 'failing' then return o end
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('PUBLISH', ARGV[3], ns(o) .. ARGV[1])
return o
`)

// seatingScript moves an unsettled match's time to now (its seating starts late).
//
//	KEYS[1] the unsettled matches
//	ARGV now ms, the match (encoded)
//
// Returns 1, or 0 when the match is settled (not in the index).
var seatingScript = redis.NewScript(`
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
return 1
`)
