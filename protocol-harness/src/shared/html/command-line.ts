// The command line a report shows at its top, as a shell would take it, with passwords hidden: a
// report is a CI artifact that people pass around.

/** Options whose whole value is a secret. */
const SECRET_OPTIONS = new Set(['--password', '--passcode']);
/** Options whose value is EMAIL:PASSWORD: the password part is a secret. */
const CREDENTIAL_OPTIONS = new Set(['--caller', '--callee', '--third']);

const HIDDEN = '***';

function hideValue(option: string, value: string): string {
  if (SECRET_OPTIONS.has(option)) return HIDDEN;
  if (CREDENTIAL_OPTIONS.has(option)) {
    const i = value.indexOf(':');
    return i < 0 ? value : `${value.slice(0, i)}:${HIDDEN}`;
  }
  return value;
}

/** The arguments with secret values replaced by ***, in both "--opt value" and "--opt=value" forms. */
export function redactArgs(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) return `${arg.slice(0, eq)}=${hideValue(arg.slice(0, eq), arg.slice(eq + 1))}`;
    const previous = args[i - 1];
    return previous !== undefined && previous.startsWith('--') && !previous.includes('=') ? hideValue(previous, arg) : arg;
  });
}

/** One argument as a POSIX shell would need it written. */
export function shellQuote(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** "harness load --url … --password ***" from the process's own arguments. */
export function commandLine(args: readonly string[] = process.argv.slice(2)): string {
  return ['harness', ...redactArgs(args).map(shellQuote)].join(' ');
}
