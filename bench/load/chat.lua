-- wrk script: POST an OpenAI chat completion to the pagantic API adapter and check every answer.
-- Usage: wrk -t2 -c16 -d20s --latency -s bench/load/chat.lua http://127.0.0.1:18080/v1/chat/completions
-- Set STREAM=1 in the environment for streamed (server-sent events) completions.
local stream = os.getenv("STREAM") == "1"

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"zero-latency","messages":[{"role":"user","content":"Hello, how are you today?"}]'
        .. (stream and ',"stream":true}' or '}')

-- What a complete, successful answer contains: the end of the stream, or a finished completion.
local expected = stream and "data: [DONE]" or '"finish_reason":"stop"'

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  bad = 0
  first_bad = ""
end

function response(status, headers, body)
  if status ~= 200 or not string.find(body, expected, 1, true) then
    bad = bad + 1
    if first_bad == "" then
      first_bad = status .. " " .. string.sub(body, 1, 300)
    end
  end
end

function done(summary, latency, requests)
  local total_bad = 0
  local example = ""
  for _, thread in ipairs(threads) do
    total_bad = total_bad + thread:get("bad")
    if example == "" then
      example = thread:get("first_bad")
    end
  end
  io.write(string.format("mode=%s requests=%d bad_answers=%d socket_errors=%d timeouts=%d non2xx=%d\n",
      stream and "stream" or "whole", summary.requests, total_bad,
      summary.errors.connect + summary.errors.read + summary.errors.write, summary.errors.timeout,
      summary.errors.status))
  io.write(string.format("latency_us p50=%d p90=%d p99=%d max=%d\n", latency:percentile(50),
      latency:percentile(90), latency:percentile(99), latency.max))
  if example ~= "" then
    io.write("first bad answer: " .. example .. "\n")
  end
end
