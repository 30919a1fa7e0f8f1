-- wrk script of `scripts/bench-relay`'s mixed run: every request asks one endpoint of the relay about
-- another feed, post or search term, rotating over the benchmark's synthetic data, so that the response
-- cache cannot answer nearly everything from one entry.
--
--   wrk -t2 -c64 -d5s --latency -s scripts/bench-relay-mixed.lua http://127.0.0.1:PORT \
--       -- ENDPOINT FEEDS POSTS ENCODED_NODE_BASE [uncached]
--
-- ENDPOINT is one of mentions, notifications, reactions, replies, interactions, search, profile, feeds,
-- stats, rss; FEEDS and POSTS are the benchmark's --feeds and --posts; ENCODED_NODE_BASE is the feeds'
-- base URL (http://127.0.0.1:NODE_PORT) percent-encoded. Feed u<i> is ENCODED_NODE_BASE/u<i>/social.org;
-- its post j has the ID 2025-01-01T00:00:00+0000 plus j hours and i seconds (see scripts/bench-relay).
--
-- With "uncached", every request carries a parameter of its own (bench=<thread>-<count>, which the relay
-- ignores), so the response cache never answers: every request is computed by the store.
--
-- BENCH_RELAY_PORTS (environment, e.g. "8081,8082") spreads the threads over several relay processes on
-- the URL's host: thread k connects to the (k mod n)-th port, so give a multiple of n threads.

local endpoint, feeds, posts, base, uncached
local counter = 0

-- The ports to spread the threads over (BENCH_RELAY_PORTS), empty for the URL's own.
local ports = {}
for port in string.gmatch(os.getenv("BENCH_RELAY_PORTS") or "", "%d+") do
    ports[#ports + 1] = port
end

-- Each thread starts elsewhere in the rotation, and connects to its relay process.
local started = 0
function setup(thread)
    thread:set("offset", started * 7919)
    thread:set("thread_index", started)
    if #ports > 0 then
        thread.addr = wrk.lookup(wrk.host, ports[(started % #ports) + 1])[1]
    end
    started = started + 1
end

function init(args)
    endpoint = args[1]
    feeds = tonumber(args[2])
    posts = tonumber(args[3])
    base = args[4]
    uncached = args[5] == "uncached"
    counter = offset or 0
end

-- The percent-encoded URL of feed i.
local function feed(i)
    return base .. "%2Fu" .. (i % feeds) .. "%2Fsocial.org"
end

-- The percent-encoded URL of post j of feed i.
local function post(i, j)
    local t = j * 3600 + (i % feeds)
    local id = string.format("2025-01-%02dT%02d%%3A%02d%%3A%02d%%2B0000", 1 + math.floor(t / 86400),
        math.floor(t / 3600) % 24, math.floor(t / 60) % 60, t % 60)
    return feed(i) .. "%23" .. id
end

-- 1,000 search terms: the 500 topic words and 500 "feed <n> about" phrases.
local function term(n)
    if n % 2 == 0 then
        return "topic" .. ((n / 2) % 500)
    end
    return "feed+" .. (((n - 1) / 2) % feeds) .. "+about"
end

local paths = {
    mentions = function(n) return "/mentions/?feed=" .. feed(n) end,
    notifications = function(n) return "/notifications/?feed=" .. feed(n) end,
    reactions = function(n) return "/reactions/?feed=" .. feed(n) end,
    replies = function(n) return "/replies/?post=" .. post(n, (n * 7) % posts) end,
    interactions = function(n) return "/interactions/?post=" .. post(n, (n * 7) % posts) end,
    search = function(n) return "/search/?q=" .. term(n % 1000) end,
    profile = function(n) return "/profile/?feed=" .. feed(n) end,
    feeds = function(n) return "/feeds/" end,
    stats = function(n) return "/stats/" end,
    rss = function(n) return "/rss.xml?feed=" .. feed(n) end,
}

function request()
    counter = counter + 1
    local n = counter % 1000
    local path = paths[endpoint](n)
    if uncached then
        local separator = string.find(path, "?", 1, true) and "&" or "?"
        path = path .. separator .. "bench=" .. (thread_index or 0) .. "-" .. counter
    end
    return wrk.format("GET", path)
end
