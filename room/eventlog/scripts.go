package eventlog

import "github.com/redis/go-redis/v9"

// appendLua is the one write path of a room (Create, Append, Finish).
// It runs the same on Redis 7 and on miniredis (Lua 5.1, no cjson needed).
//
//	KEYS[1] state hash, KEYS[2] events list, KEYS[3] pub/sub channel,
//	KEYS[4..7] lobby live/open/finished, rooms active (only when the lobby is updated in the script)
//	ARGV[1] expected seq: "new" (room must not exist), "any" (must exist) or a decimal seq
//	ARGV[2] number of events, ARGV[3] number of field/value pairs
//	ARGV[4] publish command: "PUBLISH", "SPUBLISH" or "" (none)
//	ARGV[5] expiry of the room keys: "" keep, "0" persist, else PEXPIRE milliseconds
//	ARGV[6] number of lobby ops, ARGV[7] room id
//	then the events, then field, value, ..., then lobby ops as (index 1..4, op, score)
//	with op "+" (ZADD), "-" (ZREM) or "<" (ZREMRANGEBYSCORE -inf (score: prune)
//
// Returns {1, newSeq} written; {2, seq} already written by an earlier try of
// the same append (same events stored after the expected seq); {0, seq} seq
// conflict; {-1, 0} no such room; {-2, seq} exists.
const appendLua = `
local cur = redis.call('HGET', KEYS[1], 'seq')
local exp = ARGV[1]
if exp == 'new' then
  if cur then return {-2, tonumber(cur)} end
  cur = 0
else
  if not cur then return {-1, 0} end
  cur = tonumber(cur)
  if exp ~= 'any' and tonumber(exp) ~= cur then
    -- A retry of an append that was already applied (reply lost): the same
    -- events are stored right after the expected seq. Report success.
    local n = tonumber(ARGV[2])
    if n > 0 and cur == tonumber(exp) + n then
      local stored = redis.call('LRANGE', KEYS[2], tonumber(exp), cur - 1)
      local same = #stored == n
      for j = 1, n do
        if not same then break end
        same = stored[j] == ARGV[7 + j]
      end
      if same then return {2, cur} end
    end
    return {0, cur}
  end
end
local ne = tonumber(ARGV[2])
local nf = tonumber(ARGV[3])
local pub = ARGV[4]
local ex = ARGV[5]
local nl = tonumber(ARGV[6])
local id = ARGV[7]
local e0 = 8
local f0 = e0 + ne
local l0 = f0 + 2 * nf
if ne > 0 then
  redis.call('RPUSH', KEYS[2], unpack(ARGV, e0, f0 - 1))
end
local new = cur + ne
if nf > 0 then
  redis.call('HSET', KEYS[1], 'seq', new, unpack(ARGV, f0, l0 - 1))
else
  redis.call('HSET', KEYS[1], 'seq', new)
end
if ex == '0' then
  redis.call('PERSIST', KEYS[1])
  redis.call('PERSIST', KEYS[2])
elseif ex ~= '' then
  redis.call('PEXPIRE', KEYS[1], ex)
  if ne > 0 or redis.call('EXISTS', KEYS[2]) == 1 then
    redis.call('PEXPIRE', KEYS[2], ex)
  end
end
for j = 0, nl - 1 do
  local k = KEYS[3 + tonumber(ARGV[l0 + 3 * j])]
  local op = ARGV[l0 + 3 * j + 1]
  local score = ARGV[l0 + 3 * j + 2]
  if op == '+' then
    redis.call('ZADD', k, score, id)
  elseif op == '-' then
    redis.call('ZREM', k, id)
  elseif op == '<' then
    redis.call('ZREMRANGEBYSCORE', k, '-inf', '(' .. score)
  end
end
if pub ~= '' then
  for j = 1, ne do
    redis.call(pub, KEYS[3], tostring(cur + j) .. ':' .. ARGV[e0 + j - 1])
  end
end
return {1, new}
`

// leaseAcquireLua takes the lease if it is free or already ours (then it is extended).
// KEYS[1] owner, ARGV[1] node id, ARGV[2] ttl ms. Returns 1 held, 0 held by another.
const leaseAcquireLua = `
local cur = redis.call('GET', KEYS[1])
if cur == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if cur then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`

// leaseRenewLua extends the lease only if it is still ours, and notes in the room's
// state hash (when it exists) that the room ran until now.
// KEYS[1] owner, KEYS[2] state, ARGV[1] node id, ARGV[2] ttl ms, ARGV[3] now (Unix ms).
const leaseRenewLua = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  if redis.call('EXISTS', KEYS[2]) == 1 then
    redis.call('HSET', KEYS[2], '` + FieldAliveAt + `', ARGV[3])
  end
  return 1
end
return 0
`

// leaseReleaseLua deletes the lease only if it is still ours, noting the hand-over time
// like leaseRenewLua. Same KEYS and ARGV (the ttl is not used).
const leaseReleaseLua = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if redis.call('EXISTS', KEYS[2]) == 1 then
    redis.call('HSET', KEYS[2], '` + FieldAliveAt + `', ARGV[3])
  end
  return 1
end
return 0
`

var (
	appendScript       = redis.NewScript(appendLua)
	leaseAcquireScript = redis.NewScript(leaseAcquireLua)
	leaseRenewScript   = redis.NewScript(leaseRenewLua)
	leaseReleaseScript = redis.NewScript(leaseReleaseLua)
)
