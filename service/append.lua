#!lua
-- Append a batch of events to a game stream (DESIGN §4). Every check comes before the first
-- write, so a batch is all or nothing; an empty batch writes nothing.
-- KEYS[1] the stream rummy:{<game>}:events; KEYS[2] the sharded channel rummy:{<game>}:notify
-- (the new version is published there after an append, service/notify.py);
-- KEYS[3] (optional) rummy:{<game>}:idem:<key>
-- ARGV[1] expected version, ARGV[2] request fingerprint, ARGV[3] idempotency TTL in ms,
-- ARGV[4] the caller's claim on the key (claim.lua; '' for none),
-- ARGV[5..] one (type, schema, data-json) triple per event; schema 'c' is the compact form
-- (service/compact_events.py): (code, 'c', JSON array of the values), written as fields t, d, a.
-- Returns {status, version, recorded_at}: status 'ok' (version after the append), 'dup' (the
-- key was seen with this fingerprint: version its first append produced), 'reused' (seen with
-- another fingerprint), 'pending' (another request holds a claim on the key and has not
-- appended), 'conflict' (version is the stream's actual version). recorded_at (with 'ok') is
-- the server's TIME in ms since the epoch (one time per append), written as field 'at' of
-- every event of the batch: as is on the game's first event, as ms since that event's 'at'
-- on the others (a 3-4 byte integer in the stream's listpack instead of 8 bytes; issue 12's
-- memory per game). Field 'schema' is left out when it is 1 (service/redis_store.py reads
-- both forms, and the absolute times of streams written before). A script calling TIME before writing needs effects replication, the
-- only mode of Redis 7 and valkey: replicas receive the XADDs, not the script.
local stream, notify, idem = KEYS[1], KEYS[2], KEYS[3]
local expected = tonumber(ARGV[1])

if idem then
  local seen = redis.call('HMGET', idem, 'fingerprint', 'version', 'claim')
  if seen[1] then
    if seen[1] ~= ARGV[2] then return {'reused', 0} end
    if seen[2] then return {'dup', tonumber(seen[2])} end
    if seen[3] ~= ARGV[4] then return {'pending', 0} end
  end
end

local current = 0
local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
if #last > 0 then current = tonumber(string.match(last[1][1], '^0%-(%d+)$')) end
if current ~= expected then return {'conflict', current} end

local clock = redis.call('TIME')
-- as a string of digits: Lua 5.1 would print a large number in exponent notation
local now = clock[1] .. string.format('%03d', math.floor(tonumber(clock[2]) / 1000))
local count = (#ARGV - 4) / 3
if count == 0 then return {'ok', current, now} end
local at = now
if current > 0 then
  local fields = redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'at' or fields[i] == 'a' then
      at = string.format('%d', tonumber(now) - tonumber(fields[i + 1]))
    end
  end
end
for i = 1, count do
  local base = 4 + (i - 1) * 3
  if ARGV[base + 2] == 'c' then
    redis.call('XADD', stream, '0-' .. (current + i),
               't', ARGV[base + 1], 'd', ARGV[base + 3], 'a', at)
  elseif ARGV[base + 2] == '1' then
    redis.call('XADD', stream, '0-' .. (current + i),
               'type', ARGV[base + 1], 'data', ARGV[base + 3], 'at', at)
  else
    redis.call('XADD', stream, '0-' .. (current + i),
               'type', ARGV[base + 1], 'schema', ARGV[base + 2], 'data', ARGV[base + 3],
               'at', at)
  end
end
if idem then
  redis.call('HSET', idem, 'fingerprint', ARGV[2], 'version', current + count)
  redis.call('HDEL', idem, 'claim')
  redis.call('PEXPIRE', idem, ARGV[3])
end
redis.call('SPUBLISH', notify, current + count)
return {'ok', current + count, now}
