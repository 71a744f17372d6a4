#!lua
-- Release a claim on an idempotency key whose request appended nothing (refused, or nothing
-- to do), so that a retry is decided afresh. A key already answered is left as it is.
-- KEYS[1] rummy:{<game>}:idem:<seat|system>:<key>; ARGV[1] the claim id.
local seen = redis.call('HMGET', KEYS[1], 'version', 'claim')
if not seen[1] and seen[2] == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0
