/**
 * Exact sliding-log rate limit, run atomically inside Redis.
 *
 * The sorted set at KEYS[1] holds one member per admitted request, scored by the time it was
 * admitted in microseconds. Each call drops members that have left the window, counts the rest
 * and admits only while that count is below the limit, so no window of `windowMs` can ever hold
 * more than `limit` admissions, however many API instances share the key. Refused requests are
 * not recorded: otherwise a client retrying too early would push its own window forward and
 * waiting Retry-After would not be enough.
 *
 * Time comes from `redis.call('TIME')`, never from the caller, because API instances' clocks
 * drift and a skewed instance could otherwise widen or shrink everyone's window. Redis 7 always
 * replicates scripts by effects, so TIME followed by writes is allowed (Redis < 5 would need
 * redis.replicate_commands()).
 *
 * Microseconds since the epoch (~1.7e15) fit exactly in a Lua double and in a sorted-set score,
 * and Redis formats numeric arguments with %.17g, so no precision is lost.
 *
 * KEYS[1] sorted set of this subject
 * ARGV[1] limit
 * ARGV[2] window in milliseconds
 * ARGV[3] member unique to this request (two requests in the same microsecond must both count)
 *
 * Returns { allowed (1|0), remaining, ms until the oldest counted request leaves the window }.
 */
export const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local windowMs = tonumber(ARGV[2])
local windowUs = windowMs * 1000

local time = redis.call('TIME')
local nowUs = tonumber(time[1]) * 1000000 + tonumber(time[2])

redis.call('ZREMRANGEBYSCORE', key, '-inf', nowUs - windowUs)
local count = redis.call('ZCARD', key)

local allowed = 0
if count < limit then
  redis.call('ZADD', key, nowUs, ARGV[3])
  -- The newest member is the last to expire, so the key can go once it has.
  redis.call('PEXPIRE', key, windowMs)
  count = count + 1
  allowed = 1
end

local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local resetMs = 0
if oldest[2] then
  resetMs = math.ceil((tonumber(oldest[2]) + windowUs - nowUs) / 1000)
end

return { allowed, limit - count, resetMs }
`;

/**
 * The same log, looked at without recording anything: would a request be admitted now?
 * Used where the caller records only some requests (failed authentications) but must refuse the
 * others early once the log is full, before they cost anything. Same keys, arguments (but the
 * member) and reply as SLIDING_WINDOW_LUA; it writes nothing, so it runs as a read-only script.
 */
export const SLIDING_WINDOW_PEEK_LUA = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local windowUs = tonumber(ARGV[2]) * 1000

local time = redis.call('TIME')
local nowUs = tonumber(time[1]) * 1000000 + tonumber(time[2])
local cutoff = '(' .. (nowUs - windowUs)

local count = redis.call('ZCOUNT', key, cutoff, '+inf')
local oldest = redis.call('ZRANGE', key, cutoff, '+inf', 'BYSCORE', 'LIMIT', 0, 1, 'WITHSCORES')
local resetMs = 0
if oldest[2] then
  resetMs = math.ceil((tonumber(oldest[2]) + windowUs - nowUs) / 1000)
end

local allowed = 0
if count < limit then allowed = 1 end
return { allowed, limit - count, resetMs }
`;
