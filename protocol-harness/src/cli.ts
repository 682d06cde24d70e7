// The protocol harness: proves the server works by talking to it only over HTTP and STOMP, as
// any client would. It imports nothing from server/; common/ is the wire contract it shares.
import { Command } from 'commander';
import { registerCallCommand } from './caller/command';
import { loadCommand } from './load/command';

const program = new Command('harness').description("Let's Chat protocol harness: headless clients against a running server");

registerCallCommand(program);
program.addCommand(loadCommand());
// Further commands register here, one line each.

program.parseAsync(process.argv).catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
