// The TypeScript MCP client (@modelcontextprotocol/client) with @modelcontextprotocol/ext-tasks,
// driving godot-bridge's MCP tasks: the 2025-11-25 form (v1, over the initialize handshake) or the
// 2026-07-28 extension (v2, the client pinned to that revision). Run by
// tests/bridge/test_jobs_ts_client.py from the folder scripts/ts_clients.sh installs into;
// the options arrive as JSON in argv[2], the findings leave as one JSON object on stdout.
//
// ext-tasks needs, for v2, the host's raw request path ("rawDispatch"): the SDK client refuses a
// resultType it does not know. It is built here as a host would: requests of our own ids go out on
// the client's connected transport, and their answers are taken off it before the client sees them.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";

const options = JSON.parse(process.argv[2]);
const modern = options.era === "v2";
const clientInfo = { name: "ts-tasks-test", version: "1.0.0" };
const out = {};

const transport = options.transport === "http"
  ? new StreamableHTTPClientTransport(new URL(options.url))
  : new StdioClientTransport({ command: options.command, args: options.args, env: options.env, cwd: options.cwd,
    stderr: "ignore" });
const client = new Client(clientInfo, {
  capabilities: {},
  ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
});
await client.connect(transport);
out.era = client.getProtocolEra();

// The host's raw request path: our ids, answered before the client's own message handler runs.
const waiting = new Map();
let next = 0;
const clientOnMessage = transport.onmessage;
transport.onmessage = (message, extra) => {
  const answer = waiting.get(message.id);
  if (answer !== undefined && (message.result !== undefined || message.error !== undefined)) {
    waiting.delete(message.id);
    answer(message);
    return;
  }
  clientOnMessage?.(message, extra);
};
async function rawDispatch(request) {
  const id = `raw-${++next}`;
  const answered = new Promise((resolve) => waiting.set(id, resolve));
  await transport.send({ jsonrpc: "2.0", id, method: request.method, params: request.params });
  const message = await answered;
  return message.error !== undefined ? { kind: "error", error: message.error } : { kind: "result", result: message.result };
}
const framing = { protocolVersion: "2026-07-28", clientInfo, clientCapabilities: {} };
const session = createTaskSessionFromClient(client, {
  endpointId: "godot-bridge",
  ...(modern ? { rawDispatch, v2RequestFraming: framing } : {}),
});

// What a task says now, through the client's own request path (v1) or the raw one (v2).
async function taskNow(taskId) {
  if (!modern) return await client.request({ method: "tasks/get", params: { taskId } }, jsonValue);
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": clientInfo,
    "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
  const answer = await rawDispatch({ method: "tasks/get", params: { taskId, _meta: meta } });
  if (answer.kind === "error") throw new Error(JSON.stringify(answer.error));
  return answer.result;
}
// taskSupport "optional": ext-tasks calls such a tool as a task when the caller prefers it.
const prefer = { task: { preference: "prefer" } };
const jsonValue = { "~standard": { version: 1, vendor: "godot-bridge-test", validate: (value) => ({ value }) } };

try {
  await client.callTool({ name: "discover_tools", arguments: { request: "testing" } });
  const tools = (await client.listTools()).tools;
  out.taskSupport = tools.find((tool) => tool.name === "test_run")?.execution?.taskSupport ?? null;
  out.blocking = await client.callTool({ name: "test_run", arguments: {} });

  const execution = await session.callTool("test_run", {}, prefer);
  out.taskId = execution.handle?.taskId ?? null;
  const { outcome } = await execution.settle();
  out.outcome = outcome.kind ?? outcome.status ?? null;
  out.result = resultFromTaskOutcome(outcome);

  if (options.cancel) {
    const running = await session.callTool("test_run", {}, prefer);
    out.cancelledTaskId = running.handle?.taskId ?? null;
    // Cancel once the run has reported progress: the toolkit is running it by then.
    for (let i = 0; i < 400; i++) {
      const task = await taskNow(out.cancelledTaskId);
      if ((task.statusMessage ?? "").includes("suite 1")) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await running.cancel();
    const settled = await running.settle().catch((error) => ({ error: String(error) }));
    out.cancelSettled = settled.error ?? settled.outcome?.kind ?? settled.outcome?.status ?? null;
    const after = await taskNow(out.cancelledTaskId);
    out.cancelledStatus = after.status;
    out.cancelledMessage = after.statusMessage ?? null;
  }
} catch (error) {
  const causes = [];
  for (let cause = error; cause !== undefined && causes.length < 5; cause = cause?.cause) causes.push(String(cause?.stack ?? cause));
  out.error = causes.join("\ncaused by: ");
} finally {
  await session.close().catch(() => {});
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(out) + "\n");
