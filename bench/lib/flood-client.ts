// One flood of bench/lib/floods.ts in a process of its own (see inChildProcess there): argv is
// the flood's name and its arguments as JSON; the result is printed as JSON, and "sending" on
// stderr once the connections are made and the flood proper starts.
import { duplicateFlood, packedFrames } from './floods';

async function main(): Promise<void> {
  const [flood, json] = process.argv.slice(2);
  const args = JSON.parse(json) as Record<string, never>;
  const sending = () => process.stderr.write('sending\n');
  const result =
    flood === 'packed'
      ? await packedFrames(args.url, args.cookies, args.perUser, sending)
      : await duplicateFlood(args.url, args.cookie, args.roomId, args.rate, args.until, sending);
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
