/**
 * What the libraries that write a key as a template of attribute names share
 * (OneTable's `'user#${id}'`, TypeDORM's `'USER#{{id}}'`): filling each hole from what
 * a call gives, a default, or a generated value, keeping where a constant came from so
 * the finding lands on it.
 */
import type { KeyTemplate, Origin, Span, TemplatePart } from '../model';
import type { Value } from '../model/value';

export interface Filled {
  template: KeyTemplate;
  /** Where the call gave a constant that went into it. */
  span?: Span;
  /** Some value the call gives went into it. */
  used: boolean;
}

const constant = (t: KeyTemplate) => t.parts.every((p) => 'literal' in p);

/** A value the call gives, as a filling; null for one that is not a scalar. */
export function given(v: Value | undefined): Filled | null {
  if (v?.kind !== 'scalar') return null;
  return { template: v.template, span: constant(v.template) ? v.span : undefined, used: true };
}

export interface Interpolated {
  parts: TemplatePart[];
  used: boolean;
  span?: Span;
  /** The name of the first hole nothing filled: `parts` stop before it. */
  missing?: string;
}

/**
 * `text` with each hole `holes` matches (its first group the attribute's name) filled by
 * `fill`, the literal text between them placed at `origin`. Stops at the first hole
 * `fill` leaves empty.
 */
export function interpolate(
  text: string,
  holes: RegExp,
  origin: Origin,
  fill: (name: string) => Filled | null,
): Interpolated {
  const parts: TemplatePart[] = [];
  let used = false;
  let span: Span | undefined;
  let last = 0;
  for (const hit of text.matchAll(holes)) {
    if (hit.index > last) parts.push({ literal: text.slice(last, hit.index), origin });
    last = hit.index + hit[0].length;
    const v = fill(hit[1]);
    if (!v) return { parts, used, span, missing: hit[1] };
    used ||= v.used;
    span ??= v.span;
    parts.push(...v.template.parts);
  }
  if (last < text.length) parts.push({ literal: text.slice(last), origin });
  return { parts, used, span };
}
