export type Format = 'text' | 'json' | 'sarif';
export type FailOn = 'error' | 'warning' | 'info' | 'never';

export interface CheckOptions {
  paths: string[];
  format: Format;
  failOn: FailOn;
  quiet: boolean;
  color: boolean | null;
  maxFileBytes: number;
}

export type Parsed = { command: 'check'; options: CheckOptions } | { command: 'help' } | { command: 'version' };

export class UsageError extends Error {}

export const USAGE = `Usage: shardlens check [paths...] [options]
       shardlens lab [options]        a local DynamoDB + CloudWatch endpoint that throttles hot keys
       shardlens lab demo             a hot partition and its cure, in numbers (see docs/lab.md)

Finds DynamoDB hot-partition risks in TypeScript, JavaScript and Python code.
Paths are files or folders (default: the current folder).

Options:
  --format text|json|sarif      output format (default: text)
  --fail-on error|warning|info|never
                                exit 1 when a finding has at least this severity
                                (default: error)
  --max-file-size <KB>          skip files larger than this (default: 2048)
  --quiet                       print findings only: no summary, no skipped files
  --color, --no-color           force or disable coloured text output
  -h, --help                    show this help
  -v, --version                 show the version

Exit codes: 0 no finding reached --fail-on, 1 one did, 2 usage error.`;

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T {
  if (value === undefined) throw new UsageError(`${flag} needs a value: ${allowed.join(', ')}`);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

/** Parses argv (without node and the script). Throws UsageError on bad input. */
export function parseArgs(argv: string[]): Parsed {
  if (argv.length === 0 || argv[0] === '-h' || argv[0] === '--help' || argv[0] === 'help') return { command: 'help' };
  if (argv[0] === '-v' || argv[0] === '--version') return { command: 'version' };
  if (argv[0] !== 'check') throw new UsageError(`unknown command "${argv[0]}"; did you mean "shardlens check"?`);
  const options: CheckOptions = {
    paths: [],
    format: 'text',
    failOn: 'error',
    quiet: false,
    color: null,
    maxFileBytes: 2048 * 1024,
  };
  for (let i = 1; i < argv.length; i++) {
    const raw = argv[i];
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1;
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const inline = eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--format':
        options.format = oneOf(flag, value(), ['text', 'json', 'sarif'] as const);
        break;
      case '--fail-on':
        options.failOn = oneOf(flag, value(), ['error', 'warning', 'info', 'never'] as const);
        break;
      case '--max-file-size': {
        const v = value();
        const kb = Number(v);
        if (!v || !Number.isFinite(kb) || kb <= 0)
          throw new UsageError(`--max-file-size needs a positive number of KB (got "${v ?? ''}")`);
        options.maxFileBytes = Math.round(kb * 1024);
        break;
      }
      case '--quiet':
      case '-q':
        options.quiet = true;
        break;
      case '--color':
        options.color = true;
        break;
      case '--no-color':
        options.color = false;
        break;
      case '-h':
      case '--help':
        return { command: 'help' };
      default:
        if (raw.startsWith('-')) throw new UsageError(`unknown option "${raw}"`);
        options.paths.push(raw);
    }
  }
  if (options.paths.length === 0) options.paths.push('.');
  return { command: 'check', options };
}
