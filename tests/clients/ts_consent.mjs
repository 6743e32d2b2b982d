// Tool calls through the TypeScript SDK 2.x client (see README.md). Its 2026-07-28 answer to
// input_required (retry with the answer and the requestState) and its 2025 elicitation/create
// handler are the SDK's own; this file only says what the person answers.
import { pathToFileURL } from 'node:url';

const dist = `${process.env.TS_CLIENT_DIR}/node_modules/@modelcontextprotocol/client/dist`;
const { Client, StreamableHTTPClientTransport } = await import(pathToFileURL(`${dist}/index.mjs`).href);
const { StdioClientTransport } = await import(pathToFileURL(`${dist}/stdio.mjs`).href);

async function run(spec) {
  let asked = 0;
  const capabilities = spec.answer === null ? {} : { elicitation: { form: {} } };
  const mode = spec.era === 'modern' ? { pin: '2026-07-28' } : 'legacy';
  const client = new Client({ name: 'ts-consent', version: '1.0.0' }, { capabilities, versionNegotiation: { mode } });
  if (spec.answer !== null) {
    client.setRequestHandler('elicitation/create', async () => {
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, (spec.reads_s ?? 0) * 1000)); // the person reads it
      return spec.answer === 'accept' ? { action: 'accept', content: { allow: true } } : { action: spec.answer };
    });
  }
  const transport = spec.server === 'stdio'
    ? new StdioClientTransport({ command: process.env.BRIDGE_PYTHON, args: ['-m', 'godot_bridge'],
      env: process.env, cwd: process.env.BRIDGE_ROOT, stderr: 'ignore' })
    : new StreamableHTTPClientTransport(new URL(spec.server));
  await client.connect(transport);
  const result = await client.callTool({ name: spec.tool, arguments: spec.arguments });
  const protocol = client.getNegotiatedProtocolVersion();
  await client.close();
  return { asked, protocol, result: JSON.parse(result.content[0].text) };
}

for (const spec of JSON.parse(process.argv[2])) {
  console.log(JSON.stringify(await run(spec)));
}
