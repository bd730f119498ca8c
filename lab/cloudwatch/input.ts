// Reading CloudWatch inputs the same way whatever protocol carried them:
// timestamps arrive as epoch seconds (JSON), CBOR tag-1 numbers or Dates,
// or ISO 8601 text (awsQuery); numbers may arrive as text (awsQuery).

import { invalidParameter, missingParameter } from './errors';

export type Input = Record<string, unknown>;

export function required(input: Input, name: string): unknown {
  const v = input[name];
  if (v === undefined || v === null || v === '') throw missingParameter(name);
  return v;
}

export function timestamp(input: Input, name: string): number {
  const v = required(input, name);
  let ms: number;
  if (v instanceof Date) ms = v.getTime();
  else if (typeof v === 'number') ms = v * 1000;
  else if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)) ms = Number(v) * 1000;
  else if (typeof v === 'string') ms = Date.parse(v);
  else ms = NaN;
  if (!Number.isFinite(ms)) throw invalidParameter(`The parameter ${name} must be a timestamp.`);
  return ms;
}

export function integer(input: Input, name: string, fallback?: number): number {
  const v = input[name];
  if (v === undefined || v === null) {
    if (fallback === undefined) throw missingParameter(name);
    return fallback;
  }
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw invalidParameter(`The parameter ${name} must be an integer.`);
  return n;
}

export function text(input: Input, name: string, fallback?: string): string {
  const v = input[name];
  if (v === undefined || v === null) {
    if (fallback === undefined) throw missingParameter(name);
    return fallback;
  }
  if (typeof v !== 'string') throw invalidParameter(`The parameter ${name} must be a string.`);
  return v;
}

export function list(input: Input, name: string): unknown[] {
  const v = input[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw invalidParameter(`The parameter ${name} must be a list.`);
  return v;
}

/** A list of strings. Not String(x) on each: a decoded structure has no prototype, hence no toString. */
export function texts(input: Input, name: string): string[] {
  return list(input, name).map((x) => {
    if (typeof x !== 'string') throw invalidParameter(`The parameter ${name} must be a list of strings.`);
    return x;
  });
}

export function object(v: unknown, name: string): Input {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw invalidParameter(`The parameter ${name} must be a structure.`);
  return v as Input;
}
