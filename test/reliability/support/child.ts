/**
 * Runs one fault scenario in a process of its own (`node --import tsx child.ts <name>`), so the
 * parent test can prove the process then exits on its own: no dangling timer, socket or pending
 * promise keeps it alive. Prints one JSON line with the rows when the scenario ends, and one on
 * exit with every unhandled rejection or uncaught exception seen. It never calls process.exit.
 */
import { SCENARIOS } from './scenarios/index.js';

const problems: string[] = [];
process.on('unhandledRejection', (reason) => {
  problems.push(
    `unhandledRejection: ${reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason)}`,
  );
});
process.on('uncaughtException', (error) => {
  problems.push(`uncaughtException: ${error.name}: ${error.message}`);
  process.exitCode = 1;
});
// Pipes are written synchronously on Linux, so this line is out before the process ends.
process.on('exit', (code) => process.stdout.write(`${JSON.stringify({ type: 'exit', code, problems })}\n`));

const name = process.argv[2] ?? '';
const scenario = SCENARIOS[name];
if (!scenario) {
  problems.push(`unknown scenario ${name}`);
  process.exitCode = 2;
} else {
  const rows = await scenario();
  // Let queued microtasks and immediate callbacks run, so late rejections are counted too.
  await new Promise((resolve) => setImmediate(resolve));
  const active = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap');
  process.stdout.write(`${JSON.stringify({ type: 'rows', rows, active })}\n`);
}
