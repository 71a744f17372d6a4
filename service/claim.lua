#!lua
-- Claim an idempotency key before deciding its request (docs/service.md "Idempotency"), so
-- that of requests racing with one key only the claimant decides; the others wait for its
-- answer. The claim lives a short TTL: a claimant that dies leaves the key free again.
-- KEYS[1] rummy:{<game>}:idem:<seat|system>:<key>
-- ARGV[1] request fingerprint, ARGV[2] claim id (random, per request), ARGV[3] claim TTL in ms
-- Returns {status, version}: 'claimed' (the caller decides), 'dup' (answered: version its
-- append produced), 'reused' (the key stands for another fingerprint), 'pending' (another
-- request with this fingerprint holds the claim).
local idem = KEYS[1]
local seen = redis.call('HMGET', idem, 'fingerprint', 'version', 'claim')
if seen[1] then
  if seen[1] ~= ARGV[1] then return {'reused', 0} end
  if seen[2] then return {'dup', tonumber(seen[2])} end
  if seen[3] ~= ARGV[2] then return {'pending', 0} end
  return {'claimed', 0}
end
redis.call('HSET', idem, 'fingerprint', ARGV[1], 'claim', ARGV[2])
redis.call('PEXPIRE', idem, ARGV[3])
return {'claimed', 0}
