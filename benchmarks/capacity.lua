-- The actions and page loads of live tables for wrk (benchmarks/capacity.py; the phones' polls
-- are h2load's, `polls_load`): each thread has one connection and plays
-- the phones of its tables (TABLES[id]) on a fixed schedule, whatever the server's answers
-- take: every ACTION_MS one phone of each table posts an action and the other PAGES load the
-- table page (an action past the end of the purchases is a poll instead). delay() holds a
-- request until it is due; a thread that falls behind sends at once (its lateness is counted).
-- Only requests due in the measured window (WARM_MS .. WARM_MS + WINDOW_MS after the thread
-- started) are counted: their statuses and latency (from sent to answered, 0.1 ms buckets) by
-- kind, in one flat table per thread (`tally`: wrk copies a thread's table to done() one level
-- deep only). An action is sent as app.js sends it (X-Companion: fetch), answered with the page
-- in place. response() is needed: the action's status moves the table's seq; a session cookie
-- the server sets is kept for the table's phones (COOKIES[id][t]) and counted ("cookie set").
-- Set before this file: now_ms() (clock.lua) and TABLES, COOKIES, ACTIONS, TOKEN, KEY_TIME,
-- SEQ0, PHONES, PAGES, ACTION_MS, WARM_MS, WINDOW_MS.

local KINDS = {"poll", "action", "page"}
local threads = {}
local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

-- One cycle of this thread's schedule: {due ms in the cycle, kind, table}, in time order. Its
-- tables' actions are evenly spaced over the cycle (from a random start), so that the
-- connection, made before it waits for its next request, never waits long enough for the
-- server to close it (READ_SECONDS: wrk would count an error, and could send two requests at
-- once on the connection made anew).
local function plan_of(mine)
  local plan = {}
  local first = math.random() * ACTION_MS / #mine
  for t = 1, #mine do
    local act = first + (t - 1) * ACTION_MS / #mine
    plan[#plan + 1] = {act, 2, t}
    for p = 1, PAGES do plan[#plan + 1] = {act + p / 1000, 3, t} end
  end
  table.sort(plan, function(a, b) return a[1] < b[1] end)
  return plan
end

-- How many requests of each kind the schedule has due in the measured window.
local function count_due(plan)
  for cycle = 0, math.ceil((WARM_MS + WINDOW_MS) / ACTION_MS) do
    for _, event in ipairs(plan) do
      local at = cycle * ACTION_MS + event[1]
      if at >= WARM_MS and at < WARM_MS + WINDOW_MS then
        local key = "due " .. KINDS[event[2]]
        tally[key] = (tally[key] or 0) + 1
      end
    end
  end
end

function init(args)
  math.randomseed(id)
  mine = TABLES[id]
  seqs = {}
  for t = 1, #mine do seqs[t] = SEQ0 end
  cookies = COOKIES[id]
  plan = plan_of(mine)
  cycle, step, sent_n = 0, 1, 0
  tally = {}
  count_due(plan)
  start = now_ms()
end

local function due(n)
  return start + cycle * ACTION_MS + plan[n][1]
end

function delay()
  return math.max(0, math.floor(due(step) - now_ms()))
end

local function measured(at)
  return at >= start + WARM_MS and at < start + WARM_MS + WINDOW_MS
end

local function add(key)
  tally[key] = (tally[key] or 0) + 1
end

local function bucket(ms)
  return string.format("%d", math.floor(ms * 10))
end

function request()
  local event, at = plan[step], due(step)
  step = step + 1
  if step > #plan then step, cycle = 1, cycle + 1 end
  local kind, t = event[2], event[3]
  local table_path = "/yard/" .. mine[t] .. "/"
  local headers = {["Cookie"] = cookies[t]}
  local action = ACTIONS[seqs[t] - SEQ0 + 1]
  if kind == 2 and action == nil then kind = 1 end  -- the script is played out: a poll
  local now = now_ms()
  current = {kind, at, now, t}
  if measured(at) then
    add("sent " .. KINDS[kind])
    add("late " .. bucket(now - at))
  end
  if kind == 1 then return wrk.format("GET", table_path .. "seq", headers) end
  if kind == 3 then return wrk.format("GET", table_path, headers) end
  sent_n = sent_n + 1
  local key = KEY_TIME .. "." .. string.format("%04d%012d", id, sent_n)
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  headers["X-Companion"] = "fetch"
  local body = "csrf_token=" .. TOKEN .. "&seq=" .. seqs[t] .. "&key=" .. key .. "&" .. action
  return wrk.format("POST", table_path .. "buy", headers, body)
end

function response(status, headers, body)
  local kind, at, sent_at, t = current[1], current[2], current[3], current[4]
  local took = now_ms() - sent_at
  if kind == 2 and status == 200 then seqs[t] = seqs[t] + 1 end
  local set = headers["Set-Cookie"]
  if set then
    cookies[t] = set:match("^(session=[^;]*)") or cookies[t]
    if measured(at) then add("cookie set") end
  end
  if measured(at) then
    add("answered " .. KINDS[kind])
    add("latency " .. KINDS[kind] .. " " .. bucket(took))
    add("status " .. KINDS[kind] .. " " .. status)
  end
end

function done(summary, _, _)
  local all, parts = {}, {}
  for _, thread in ipairs(threads) do
    for key, n in pairs(thread:get("tally")) do all[key] = (all[key] or 0) + n end
  end
  local e = summary.errors
  all["error connect"], all["error read"], all["error write"] = e.connect, e.read, e.write
  all["error timeout"] = e.timeout
  for key, n in pairs(all) do parts[#parts + 1] = string.format('"%s": %d', key, n) end
  io.write("BENCH_JSON {" .. table.concat(parts, ", ") .. "}\n")
end
