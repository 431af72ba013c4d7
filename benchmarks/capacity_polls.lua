-- The phones' polls for wrk (benchmarks/capacity.py), cheap for the load client: a few threads,
-- each with many connections (one a phone, each from its own address) sharing the schedule of
-- its tables (TABLES[id]): each of a table's PHONES polls its seq every POLL_MS, at a phase of
-- its own, whatever the answers take. wrk asks delay() when a connection is free to send:
-- delay() claims the thread's next due poll (in time order, onto a FIFO) and returns how long
-- until it is due; when a connection's wait ends, request() sends the oldest poll claimed, so
-- each poll goes out at its due time even though the connections share one schedule (a poll
-- whose connection was still busy goes late, and how late is counted). Requests are formatted
-- once per table in init(). No response() callback, so wrk builds no header tables: latency
-- (from the request written to the answer, over the whole run) and statuses above 399 come from
-- wrk's own counts in done(). Polls due after the measured window (WARM_MS .. WARM_MS +
-- WINDOW_MS after the thread started) are never claimed: the connections then only wait, and
-- the polls of the window still out get the rest of the run to be answered, so that those
-- sent but never answered are the ones wrk did not complete.
-- Set before this file: now_ms() (clock.lua) and TABLES, COOKIE, PHONES, POLL_MS, WARM_MS,
-- WINDOW_MS, RING (more than a thread's connections: the FIFO's size).

local threads = {}
local counter = 0
local LATER = 3600 * 1000  -- a wait past the end of the run: the schedule is over

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

local polls, plan_at, plan_t, fifo_at, fifo_t = {}, {}, {}, {}, {}
local step, cycle, head, tail, begun = 1, 0, 1, 0, false
local start, from, stop

function init(args)
  math.randomseed(id)
  local mine = TABLES[id]
  local plan = {}
  for t = 1, #mine do
    polls[t] = wrk.format("GET", "/yard/" .. mine[t] .. "/seq", {["Cookie"] = COOKIE})
    for _ = 1, PHONES do plan[#plan + 1] = {math.random() * POLL_MS, t} end
  end
  table.sort(plan, function(a, b) return a[1] < b[1] end)
  for i, event in ipairs(plan) do plan_at[i], plan_t[i] = event[1], event[2] end
  -- globals, read by done() through thread:get (flat tables and numbers)
  sent, sent_window, late = 0, 0, {}
  due = 0
  for c = 0, math.ceil((WARM_MS + WINDOW_MS) / POLL_MS) do
    for i = 1, #plan_at do
      local at = c * POLL_MS + plan_at[i]
      if at >= WARM_MS and at < WARM_MS + WINDOW_MS then due = due + 1 end
    end
  end
  start = now_ms()
  from, stop = start + WARM_MS, start + WARM_MS + WINDOW_MS
end

function delay()
  begun = true
  if #plan_at == 0 then return LATER end
  local at = start + cycle * POLL_MS + plan_at[step]
  if at >= stop then return LATER end
  tail = tail + 1
  fifo_at[tail % RING], fifo_t[tail % RING] = at, plan_t[step]
  step = step + 1
  if step > #plan_at then step, cycle = 1, cycle + 1 end
  return math.max(0, math.ceil(at - now_ms()))
end

function request()
  if not begun then return polls[1] end  -- wrk's check of the script before the run: not sent
  sent = sent + 1
  if head > tail then return polls[1] end  -- none claimed (a connection made anew): at once
  local at, t = fifo_at[head % RING], fifo_t[head % RING]
  head = head + 1
  if at >= from then  -- due in the measured window
    sent_window = sent_window + 1
    local bucket = math.max(0, math.floor((now_ms() - at) * 10))  -- how late, 0.1 ms
    late[bucket] = (late[bucket] or 0) + 1
  end
  return polls[t]
end

function done(summary, latency, _)
  local all, parts = {}, {}
  local sent_all, window, due_all = 0, 0, 0
  for _, thread in ipairs(threads) do
    sent_all = sent_all + thread:get("sent")
    window = window + thread:get("sent_window")
    due_all = due_all + thread:get("due")
    for bucket, n in pairs(thread:get("late")) do
      local key = string.format("late poll %d", bucket)
      all[key] = (all[key] or 0) + n
    end
  end
  -- the polls sent and not completed: still out when the run ended (after the window only its
  -- own late polls are sent) or lost with a connection (an error, counted too): all are taken
  -- as the window's
  local unanswered = math.max(0, sent_all - summary.requests)
  all["due poll"], all["sent poll"] = due_all, window
  all["answered poll"] = math.max(0, window - unanswered)
  all["status poll 4xx-5xx"] = summary.errors.status  -- wrk counts statuses above 399
  all["p50 poll"] = math.floor(latency:percentile(50))  -- microseconds
  all["p99 poll"] = math.floor(latency:percentile(99))
  local e = summary.errors
  all["error connect"], all["error read"], all["error write"] = e.connect, e.read, e.write
  all["error timeout"] = e.timeout
  for key, n in pairs(all) do parts[#parts + 1] = string.format('"%s": %d', key, n) end
  io.write("BENCH_JSON {" .. table.concat(parts, ", ") .. "}\n")
end
