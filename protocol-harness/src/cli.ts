// The protocol harness: a client of the server over HTTP and STOMP only, like any other.
//   npm run --silent harness -- load …   (see `harness load --help`)
import { Command } from 'commander';
import { loadCommand } from './load/command';

const program = new Command('harness').description("Let's Chat protocol harness").showHelpAfterError();
program.addCommand(loadCommand());

program.parseAsync(process.argv).then(
  // Sockets and timers may linger after a report: the command's exit status is final.
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    process.stderr.write(`error: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(2);
  },
);
