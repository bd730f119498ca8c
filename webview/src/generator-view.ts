/**
 * The KeyConditionExpression generator in the panel: the same module `shardlens expr`
 * runs (server/src/features/expressions), so panel and CLI print the same thing. A
 * logical key fills the form (its attribute, its sharded template with `{shard}`, its
 * shard set); every field can be typed over.
 */
import {
  buildQueries,
  ExprError,
  formatExpr,
  parseShardValues,
  SORT_OPERATORS,
  type ExprSpec,
  type SortOperator,
} from '../../server/src/features/expressions/index';
import type { JsonLogicalKey } from '../../protocol/src/report';
import { el, fill } from './dom';
import type { GeneratorState } from './host';

export interface GeneratorEvents {
  change(g: GeneratorState): void;
  copy(text: string): void;
  insert(text: string): void;
}

/**
 * The form's fields for a logical key: `{shard a..b}` in a call's template becomes
 * `{shard}`. A key that is not sharded keeps its template as it is: the form then says a
 * shard part is needed, rather than inventing one the code does not write.
 */
export function fromKey(k: JsonLogicalKey, g: GeneratorState): GeneratorState {
  const sharded = k.sites.map((s) => s.template).find((t) => /\{shard[^}]*\}/.test(t));
  const template = sharded
    ? sharded.replace(/\{shard[^}]*\}/, '{shard}')
    : k.shards
      ? `${k.template}#{shard}`
      : k.template;
  const v = k.shards?.values;
  const contiguous = v && v.length > 0 && v[v.length - 1] - v[0] + 1 === v.length;
  const shards = v && v.length ? (contiguous ? `${v[0]}..${v[v.length - 1]}` : v.join(',')) : g.shards;
  return { ...g, pkAttr: k.attribute, template, shards, index: k.index ?? '' };
}

/** The spec the form describes, or the sentence saying what to fix. */
export function specOf(g: GeneratorState): ExprSpec | string {
  try {
    const sort =
      g.skAttr.trim() && g.skOp
        ? {
            attribute: g.skAttr.trim(),
            op: g.skOp as SortOperator,
            type: g.skType,
            value: g.sk,
            ...(g.skOp === 'between' ? { value2: g.sk2 } : {}),
          }
        : null;
    return {
      pkAttribute: g.pkAttr.trim(),
      template: g.template,
      shards: parseShardValues(g.shards),
      sort,
      index: g.index.trim() || null,
    };
  } catch (e) {
    if (e instanceof ExprError) return e.message;
    throw e;
  }
}

function textfield(id: string, label: string, value: string, onInput: (v: string) => void, placeholder = '') {
  const f = el('vscode-textfield', {
    attrs: { id, 'aria-label': label, placeholder },
    on: { input: (e) => onInput((e.target as HTMLInputElement).value) },
  }) as HTMLElement & { value: string };
  f.value = value;
  return el('label', { class: 'field' }, el('span', {}, label), f);
}

function choice(
  id: string,
  label: string,
  options: Array<[string, string]>,
  value: string,
  onChange: (v: string) => void,
) {
  return el(
    'label',
    { class: 'field' },
    el('span', {}, label),
    el(
      'vscode-single-select',
      { attrs: { id, 'aria-label': label }, on: { change: (e) => onChange((e.target as HTMLSelectElement).value) } },
      ...options.map(([v, text]) => el('vscode-option', { attrs: { value: v, selected: v === value } }, text)),
    ),
  );
}

/** Renders the form once; the output part re-renders on every change (the form keeps focus). */
export function renderGenerator(
  root: HTMLElement,
  g: GeneratorState,
  keys: JsonLogicalKey[],
  ev: GeneratorEvents,
): void {
  const out = el('div', { class: 'expr-output', attrs: { 'aria-live': 'polite' } });
  let state = g;
  const update = (patch: Partial<GeneratorState>) => {
    state = { ...state, ...patch };
    ev.change(state);
    renderOutput(out, state, ev, update);
  };
  const keyPicker = keys.length
    ? choice(
        'expr-key',
        'Logical key',
        [['', '(type a template)'], ...keys.map((k): [string, string] => [k.logicalKey, k.logicalKey])],
        '',
        (v) => {
          const k = keys.find((x) => x.logicalKey === v);
          if (!k) return;
          // The picked key's fields replace the form: render it again with them.
          const next = fromKey(k, state);
          ev.change(next);
          renderGenerator(root, next, keys, ev);
        },
      )
    : null;
  fill(
    root,
    el(
      'form',
      { class: 'expr-form', on: { submit: (e) => e.preventDefault() } },
      keyPicker,
      textfield('expr-pk', 'Partition-key attribute', state.pkAttr, (v) => update({ pkAttr: v })),
      textfield('expr-index', 'Index (empty for the table)', state.index, (v) => update({ index: v })),
      textfield('expr-template', 'Template ({shard} marks the shard)', state.template, (v) => update({ template: v })),
      textfield('expr-shards', 'Shards (0..9 or 1,3,5)', state.shards, (v) => update({ shards: v })),
      textfield('expr-sk-attr', 'Sort-key attribute (optional)', state.skAttr, (v) => update({ skAttr: v })),
      choice(
        'expr-sk-op',
        'Sort-key condition',
        [['', '(none)'], ...SORT_OPERATORS.map((o): [string, string] => [o, o === 'between' ? 'BETWEEN' : o])],
        state.skOp,
        (v) => update({ skOp: v }),
      ),
      choice(
        'expr-sk-type',
        'Sort-key type',
        [
          ['S', 'string (S)'],
          ['N', 'number (N)'],
        ],
        state.skType,
        (v) => update({ skType: v as 'S' | 'N' }),
      ),
      textfield('expr-sk', 'Value', state.sk, (v) => update({ sk: v })),
      textfield('expr-sk2', 'Upper value (BETWEEN)', state.sk2, (v) => update({ sk2: v })),
    ),
    out,
  );
  renderOutput(out, state, ev, update);
}

function renderOutput(
  out: HTMLElement,
  g: GeneratorState,
  ev: GeneratorEvents,
  update: (patch: Partial<GeneratorState>) => void,
): void {
  const spec = specOf(g);
  let error = typeof spec === 'string' ? spec : null;
  let queries: ReturnType<typeof buildQueries> = [];
  if (typeof spec !== 'string') {
    try {
      queries = buildQueries(spec);
    } catch (e) {
      if (!(e instanceof ExprError)) throw e;
      error = e.message;
    }
  }
  if (g.template.trim() && !g.template.includes('{shard}')) {
    // An unsharded key (or a typed template without a shard part): say how it is read and
    // how to ask for the sharded queries, instead of a validation error.
    fill(
      out,
      el(
        'p',
        { class: 'note', attrs: { role: 'status', id: 'expr-error', 'data-state': 'unsharded' } },
        `${g.template} has no {shard} part: a key that is not sharded is read by one Query on ${g.pkAttr.trim() || 'its partition key'} = ${g.template}. `,
        `Write {shard} where a shard suffix goes (e.g. ${g.template}#{shard}) to get the query of every shard.`,
      ),
    );
    return;
  }
  if (error || typeof spec === 'string') {
    fill(out, el('p', { class: 'error', attrs: { role: 'alert', id: 'expr-error' } }, error ?? ''));
    return;
  }
  const otherHoles = g.template.replace('{shard}', '').match(/\{[^}]*\}/g);
  const code = formatExpr(spec, g.format);
  const formats: Array<[GeneratorState['format'], string]> = [
    ['json', 'JSON'],
    ['ts', 'TypeScript (SDK v3)'],
    ['python', 'Python (boto3)'],
  ];
  fill(
    out,
    otherHoles
      ? el(
          'p',
          { class: 'warning' },
          `Fill in ${otherHoles.join(', ')} with a concrete value before running these queries.`,
        )
      : null,
    el(
      'table',
      { class: 'queries', attrs: { id: 'expr-table' } },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, 'Shard'),
          el('th', {}, 'KeyConditionExpression'),
          el('th', {}, 'Names'),
          el('th', {}, 'Values'),
        ),
      ),
      el(
        'tbody',
        {},
        ...queries.map((q) =>
          el(
            'tr',
            { attrs: { 'data-shard': q.shard } },
            // data-label: the column's name, shown beside the value when rows stack (narrow panel).
            el('td', { attrs: { 'data-label': 'Shard' } }, String(q.shard)),
            el('td', { attrs: { 'data-label': 'Condition' } }, el('code', {}, q.KeyConditionExpression)),
            el(
              'td',
              { attrs: { 'data-label': 'Names' } },
              el('code', {}, JSON.stringify(q.ExpressionAttributeNames ?? {})),
            ),
            el(
              'td',
              { attrs: { 'data-label': 'Values' } },
              el('code', {}, JSON.stringify(q.ExpressionAttributeValues)),
            ),
          ),
        ),
      ),
    ),
    el(
      'div',
      { class: 'toolbar', attrs: { role: 'radiogroup', 'aria-label': 'Output format' } },
      ...formats.map(([f, label]) =>
        el(
          'button',
          {
            class: 'tab-button',
            attrs: { role: 'radio', 'aria-checked': String(f === g.format), 'data-format': f },
            on: {
              click: () => {
                // Through the form's own update, so later edits of a field keep this format.
                update({ format: f });
              },
            },
          },
          label,
        ),
      ),
    ),
    el('pre', { class: 'code', attrs: { id: 'expr-code', tabindex: 0 } }, el('code', {}, code)),
    el(
      'div',
      { class: 'toolbar' },
      el('vscode-button', { attrs: { id: 'expr-copy' }, on: { click: () => ev.copy(code) } }, 'Copy'),
      el(
        'vscode-button',
        { attrs: { id: 'expr-insert', secondary: true }, on: { click: () => ev.insert(code) } },
        'Insert at cursor',
      ),
    ),
  );
}
