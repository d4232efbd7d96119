-- The closed loops of `npm run bench` in wrk (bench/wrk.ts): each of wrk's connections sends its next request
-- when its answer is in. WRK_MODE says what the requests are:
--   chain     token chains (refresh grants): each answer's refresh_token goes into a later request
--   list      the bodies of WRK_INPUTS in turn; with WRK_ONCE each once (codes), then WRK_EXHAUSTED
--   authorize a signed-in browser's authorization (GET WRK_AUTHORIZE with WRK_COOKIE), then its code's
--             exchange, from a pool of codes answered so far
-- WRK_INPUTS holds one token or body per line. A loop cut off at its end leaves a chain per connection with
-- its last token used and its successor unread, so each loop gets chains of its own.
local mode = os.getenv('WRK_MODE')
local path = os.getenv('WRK_PATH')
local template = os.getenv('WRK_BODY')
local headers = { ['Content-Type'] = os.getenv('WRK_CONTENT_TYPE') }

threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function init()
  -- wrk calls request() once after init() to check what it answers; that call takes no input.
  checking, items, next_item, answered = true, {}, 1, 0
  for line in io.lines(os.getenv('WRK_INPUTS')) do
    items[#items + 1] = line
  end
end

local function post(value)
  return wrk.format('POST', path, headers, (template:gsub('{}', value)))
end

function request()
  if checking then
    checking = false
    return wrk.format('GET', '/')
  end
  if mode == 'list' then
    local body = items[next_item]
    next_item = next_item + 1
    if next_item > #items and not os.getenv('WRK_ONCE') then next_item = 1 end
    return wrk.format('POST', path, headers, body or os.getenv('WRK_EXHAUSTED'))
  end
  local item = table.remove(items)
  if mode == 'authorize' and item == nil then
    return wrk.format('GET', os.getenv('WRK_AUTHORIZE'), { Cookie = os.getenv('WRK_COOKIE') })
  end
  return post(item or 'exhausted')
end

if mode ~= 'list' then
  function response(status, headers, body)
    local location = headers['location'] or headers['Location']
    if location then
      items[#items + 1] = location:match('[?&]code=([^&]+)')
      return
    end
    if status == 200 then answered = answered + 1 end
    local token = body:match('"refresh_token":"([^"]+)"')
    if mode == 'chain' and token then items[#items + 1] = token end
  end
end

function done(summary, latency)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + thread:get('answered')
  end
  local e = summary.errors
  io.write(string.format(
    'wrk-summary {"requests":%d,"errors":%d,"answered":%d,"seconds":%.3f,"p50":%.3f,"p99":%.3f}\n',
    summary.requests, e.connect + e.read + e.write + e.status + e.timeout, total,
    summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
