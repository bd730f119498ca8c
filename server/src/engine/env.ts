import type { KeyTemplate } from './model';

/**
 * How code reads an environment variable, in every language the engine reads:
 * `process.env.X`, `process.env["X"]`, `os.environ["X"]`, `os.getenv("X")`,
 * `os.environ.get("X")`.
 */
const ENV_READ =
  /(?:process\.env\.|process\.env\[["'`]|environ\[["']|getenv\(["']|environ\.get\(["'])([A-Za-z_][A-Za-z0-9_]*)/;

/** The variable's name when the text reads one, else null. */
export function envVariableIn(source: string): string | null {
  return ENV_READ.exec(source)?.[1] ?? null;
}

/** The variable a template is exactly one read of (`TABLE_NAME` in `process.env.TABLE_NAME`). */
export function envVariableOf(t: KeyTemplate): string | null {
  const p = t.parts.length === 1 ? t.parts[0] : null;
  return p && 'hole' in p ? envVariableIn(p.hole.source) : null;
}
