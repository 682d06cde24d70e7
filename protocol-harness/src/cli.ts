// The protocol harness: a client of the server over HTTP and STOMP only, like any other. It
// imports nothing from server/; common/ is the wire contract it shares.
//   npm run --silent harness -- call …   (see `harness call --help`)
//   npm run --silent harness -- load …   (see `harness load --help`)
import { Command } from 'commander';
import { registerCallCommand } from './caller/command';
import { loadCommand } from './load/command';

const program = new Command('harness').description("Let's Chat protocol harness").showHelpAfterError();
registerCallCommand(program);
program.addCommand(loadCommand());

program.parseAsync(process.argv).then(
  // Sockets and timers may linger after a report: the command's exit status is final.
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    process.stderr.write(`error: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(2);
  },
);
