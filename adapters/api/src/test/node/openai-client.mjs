// Drives a pagantic API server with the official OpenAI SDK, unchanged, and prints one JSON line of what it saw.
// Usage: node openai-client.mjs <base-url> <token>   (base URL without /v1, e.g. http://127.0.0.1:8080)
// The server's scripted engine must answer, in order: a greeting, a streamed sentence, a get_weather call,
// the answer after the tool result, and a sentiment JSON document.
import OpenAI from 'openai';

const [baseUrl, token] = process.argv.slice(2);
if (!baseUrl || !token) {
  console.error('usage: node openai-client.mjs <base-url> <token>');
  process.exit(2);
}

const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: token, maxRetries: 0, timeout: 20_000 });
const model = 'gpt-4o-mini';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The current weather in a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};

async function chat() {
  const completion = await client.chat.completions.create({
    model,
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say hello.' },
    ],
    temperature: 0,
    max_tokens: 32,
  });
  const choice = completion.choices[0];
  return {
    id: completion.id,
    model: completion.model,
    content: choice.message.content,
    finish_reason: choice.finish_reason,
    total_tokens: completion.usage?.total_tokens ?? null,
  };
}

async function stream() {
  const chunks = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'Stream a sentence.' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let content = '';
  let count = 0;
  let finishReason = null;
  let usage = null;
  for await (const chunk of chunks) {
    count += 1;
    for (const choice of chunk.choices) {
      content += choice.delta?.content ?? '';
      finishReason = choice.finish_reason ?? finishReason;
    }
    usage = chunk.usage ?? usage;
  }
  return { content, chunks: count, finish_reason: finishReason, completion_tokens: usage?.completion_tokens ?? null };
}

async function toolRoundTrip() {
  const messages = [{ role: 'user', content: 'What is the weather in Paris?' }];
  const first = await client.chat.completions.create({ model, messages, tools: [weatherTool] });
  const message = first.choices[0].message;
  const call = message.tool_calls?.[0];
  if (!call) {
    return { first_finish_reason: first.choices[0].finish_reason, tool_name: null };
  }
  const args = JSON.parse(call.function.arguments);
  messages.push(message);
  messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ city: args.city, sky: 'sunny' }) });
  const second = await client.chat.completions.create({ model, messages, tools: [weatherTool] });
  return {
    first_finish_reason: first.choices[0].finish_reason,
    tool_name: call.function.name,
    tool_arguments: args,
    final_content: second.choices[0].message.content,
    final_finish_reason: second.choices[0].finish_reason,
  };
}

async function jsonSchema() {
  const completion = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: 'Analyze: great product!' }],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'sentiment',
        strict: true,
        schema: {
          type: 'object',
          properties: { sentiment: { type: 'string', enum: ['positive', 'neutral', 'negative'] } },
          required: ['sentiment'],
          additionalProperties: false,
        },
      },
    },
  });
  return { parsed: JSON.parse(completion.choices[0].message.content) };
}

async function models() {
  const ids = [];
  for await (const entry of client.models.list()) {
    ids.push(entry.id);
  }
  return ids;
}

async function unauthorizedStatus() {
  const stranger = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: 'wrong-token', maxRetries: 0 });
  try {
    await stranger.models.list();
    return 200;
  } catch (error) {
    return error instanceof OpenAI.APIError ? error.status : `unexpected: ${error}`;
  }
}

try {
  const results = {};
  // Sequential on purpose: the server's scripted engine answers in this order.
  results.chat = await chat();
  results.stream = await stream();
  results.tools = await toolRoundTrip();
  results.json_schema = await jsonSchema();
  results.models = await models();
  results.unauthorized_status = await unauthorizedStatus();
  console.log(JSON.stringify(results));
} catch (error) {
  console.log(JSON.stringify({ error: String(error), status: error?.status ?? null }));
  process.exit(1);
}
