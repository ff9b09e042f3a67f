// A deliberately faulty MCP server over stdio, in plain Node.js (raw JSON-RPC, no packages), for the fault tests
// of pagantic's MCP client. It answers initialize and tools/list properly and offers three tools:
//   echo   - answers {"text"} at once;
//   crash  - exits the process in the middle of the call (no answer);
//   hang   - never answers that call (the server stays responsive);
//   freeze - never answers that call nor anything after it.
// Modes (first argument) change the whole server:
//   normal  - as above;
//   garbage - writes lines that are not JSON-RPC before every answer (and a few at start);
//   mute    - reads everything and answers nothing, not even initialize;
//   refused - also lists a tool whose schema no JSON Schema reader accepts, and one with a dotted name.
import { createInterface } from "node:readline";

const mode = process.argv[2] ?? "normal";
const tools = [
  { name: "echo", description: "Echoes text", inputSchema: { type: "object", properties: { text: { type: "string" } },
    required: ["text"] }, annotations: { readOnlyHint: true } },
  { name: "crash", description: "Exits mid-call", inputSchema: { type: "object", properties: {} } },
  { name: "hang", description: "Never answers", inputSchema: { type: "object", properties: {} } },
  { name: "freeze", description: "Never answers again", inputSchema: { type: "object", properties: {} } },
];
if (mode === "refused") {
  tools.push({ name: "typo", inputSchema: { type: "object", properties: { x: { type: "strnig" } } } });
  tools.push({ name: "files.read", inputSchema: { type: "object" } });
}
let frozen = false;

function send(message) {
  if (mode === "garbage") {
    process.stdout.write("this is not JSON-RPC\n{\"half\": \n[1,2,3]\n");
  }
  process.stdout.write(JSON.stringify(message) + "\n");
}

if (mode === "garbage") {
  process.stdout.write("Server starting... (a log line on stdout, by mistake)\n");
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (mode === "mute" || frozen || line.trim() === "") {
    return;
  }
  const request = JSON.parse(line);
  if (request.id === undefined) {
    return; // a notification
  }
  const reply = (result) => send({ jsonrpc: "2.0", id: request.id, result });
  switch (request.method) {
    case "initialize":
      return reply({ protocolVersion: request.params.protocolVersion, capabilities: { tools: {} },
        serverInfo: { name: "faulty", version: "1.0.0" } });
    case "tools/list":
      return reply({ tools });
    case "ping":
      return reply({});
    case "tools/call":
      if (request.params.name === "crash") {
        process.stderr.write("crashing on purpose\n");
        process.exit(3);
      }
      if (request.params.name === "hang") {
        return;
      }
      if (request.params.name === "freeze") {
        frozen = true;
        return;
      }
      return reply({ content: [{ type: "text", text: "echo: " + request.params.arguments.text }] });
    default:
      return send({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "no " + request.method } });
  }
});
