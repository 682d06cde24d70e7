// The protocol harness: a client of the server over HTTP and STOMP only, like any other. It
// imports nothing from server/; common/ is the wire contract it shares.
//   npm run --silent harness -- call …   (see `harness call --help`)
//   npm run --silent harness -- load …   (see `harness load --help`)
//   npm run --silent harness -- merge a.json b.json …   (reports of runs on several machines)
// Exit statuses are the CI contract of shared/outcome.ts (docs/operations.md, "Protocol harness").
import { Command, CommanderError } from 'commander';
import { registerCallCommand } from './caller/command';
import { loadCommand } from './load/command';
import { mergeCommand } from './load/merge-command';
import { EXIT, EXIT_CODES_HELP } from './shared/outcome';

const program = new Command('harness').description("Let's Chat protocol harness").showHelpAfterError().addHelpText('after', EXIT_CODES_HELP);
registerCallCommand(program);
program.addCommand(loadCommand());
program.addCommand(mergeCommand());
// Commander exits 1 on a bad flag, which a CI job would read as "the product failed": throw
// instead, and exit 64 (EX_USAGE) below. addCommand() does not pass settings on, so each command.
for (const command of [program, ...program.commands]) command.exitOverride();

/** Help and version asked for exit 0; every other parser complaint is a usage error. */
function parserExit(err: CommanderError): number {
  if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.passed;
  return EXIT.usage;
}

program.parseAsync(process.argv).then(
  // Sockets and timers may linger after a report: the command's exit status is final.
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    if (err instanceof CommanderError) process.exit(parserExit(err));
    process.stderr.write(`error: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(EXIT.infrastructure);
  },
);
