// Runs a command (scripts/test.sh's browser phase: `node --test … tests/e2e/`) beside one headless
// Chromium that every test file connects to instead of launching its own (harness.mjs
// `launchBrowser` reads SGVIZ_BROWSER_WS; each file still gets a fresh context of its own). Exits
// with the command's exit code, after closing the browser. Usage:
//   node tests/e2e/shared-browser.mjs node --test --test-concurrency=2 tests/e2e/
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { launchOptions } from './harness.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node tests/e2e/shared-browser.mjs COMMAND [ARGS…]');
  process.exit(2);
}
const server = await chromium.launchServer(launchOptions());
const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, SGVIZ_BROWSER_WS: server.wsEndpoint() } });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((done) => { child.on('exit', (status, signal) => done(status ?? (signal ? 1 : 0))); });
await server.close();
process.exit(code);
