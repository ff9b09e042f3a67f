// The official OpenAI SDK, used as its users use it, against pagantic's server on a real model (stories260K).
// Usage: node openai-real-model.mjs <base url> <api key>. Prints one JSON line of what each call returned.
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";

const [baseUrl, apiKey] = process.argv.slice(2);
const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey, maxRetries: 0, timeout: 120_000 });
const model = "gpt-4o-mini";
const prompt = [{ role: "user", content: "Once upon a time" }];
const out = {};

async function text(params) {
  const completion = await client.chat.completions.create({ model, messages: prompt, max_tokens: 24, ...params });
  return completion.choices[0].message.content;
}

// seed: the same seed gives the same answer
out.seed = { first: await text({ seed: 42 }), second: await text({ seed: 42 }), other: await text({ seed: 7 }) };

// stop: a greedy answer, then the same request stopped at a word from its middle
const greedy = await text({ temperature: 0, max_tokens: 40 });
const words = greedy.split(" ").filter((w) => w.length > 2);
const word = words[Math.floor(words.length / 2)] ?? "the";
out.stop = { greedy, word, stopped: await text({ temperature: 0, max_tokens: 40, stop: [word] }) };

// n: three choices
const many = await client.chat.completions.create({ model, messages: prompt, max_tokens: 12, n: 3, seed: 3 });
out.n = { indices: many.choices.map((c) => c.index), contents: many.choices.map((c) => c.message.content),
  completion_tokens: many.usage.completion_tokens };

// stream
const stream = await client.chat.completions.create({ model, messages: prompt, max_tokens: 16, stream: true,
  stream_options: { include_usage: true } });
let streamed = "", chunks = 0, finish = null, usage = null;
for await (const chunk of stream) {
  chunks++;
  if (chunk.usage) usage = chunk.usage;
  for (const choice of chunk.choices) {
    streamed += choice.delta?.content ?? "";
    finish = choice.finish_reason ?? finish;
  }
}
out.stream = { content: streamed, chunks, finish_reason: finish, completion_tokens: usage?.completion_tokens };

// tools: a required call, whole and streamed through the SDK's stream helper
const tools = [{ type: "function", function: { name: "get_weather", description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string", maxLength: 16 } }, additionalProperties: false,
    required: ["city"] } } }];
const called = await client.chat.completions.create({ model, messages: [{ role: "user", content: "Weather in Paris?" }],
  tools, tool_choice: "required", parallel_tool_calls: false, max_tokens: 1200, temperature: 0 });
const call = called.choices[0].message.tool_calls?.[0];
out.tools = { finish_reason: called.choices[0].finish_reason, name: call?.function.name,
  arguments: JSON.parse(call?.function.arguments ?? "null") };
const toolStream = client.chat.completions.stream({ model, messages: [{ role: "user", content: "Weather in Paris?" }],
  tools, tool_choice: "required", parallel_tool_calls: false, max_tokens: 1200, temperature: 0 });
let argumentDeltas = 0;
toolStream.on("tool_calls.function.arguments.delta", () => argumentDeltas++);
const final = await toolStream.finalChatCompletion();
const streamedCall = final.choices[0].message.tool_calls?.[0];
out.tool_stream = { argument_deltas: argumentDeltas, name: streamedCall?.function.name,
  arguments: JSON.parse(streamedCall?.function.arguments ?? "null"), finish_reason: final.choices[0].finish_reason };

// parse with zod: a structured answer, validated by the SDK
const Mood = z.object({ sentiment: z.enum(["positive", "negative"]), happy: z.boolean() });
const parsed = await client.chat.completions.parse({ model, messages: [{ role: "user", content: "I love it!" }],
  response_format: zodResponseFormat(Mood, "mood"), max_tokens: 1200, temperature: 0 });
out.parse = { parsed: parsed.choices[0].message.parsed };

// embeddings: the SDK asks for base64 and decodes it; float on request
const embedded = await client.embeddings.create({ model, input: ["The cat sat.", "A dog ran."] });
const floats = await client.embeddings.create({ model, input: "The cat sat.", encoding_format: "float" });
out.embeddings = { count: embedded.data.length, dimension: embedded.data[0].embedding.length,
  same_as_float: embedded.data[0].embedding.every((v, i) => Math.abs(v - floats.data[0].embedding[i]) < 1e-6),
  differ: embedded.data[0].embedding.some((v, i) => v !== embedded.data[1].embedding[i]) };

// an unknown model: the SDK's NotFoundError with OpenAI's code
try {
  await client.chat.completions.create({ model: "no-such-model", messages: prompt });
  out.unknown_model = { status: 200 };
} catch (error) {
  out.unknown_model = { status: error.status, code: error.code, type: error.type, class: error.constructor.name };
}

console.log(JSON.stringify(out));
