import { literalText } from '../../../engine';
import { textIn } from '../apply';
import type { FixAction, FixProvider, TextChange } from '../fix-model';
import { hasRandomImport, headerChanges } from '../header';

/**
 * SL020: a Kafka record keyed by few values or a constant. The key expression at the
 * producer call is replaced: by the entity id the code reads beside it (`order.id` for
 * `order.status`), or for a constant by the key with a bounded random suffix. Either
 * changes which records Kafka keeps in one order, and both titles say so; neither is safe.
 */
export const kafkaFixes: FixProvider = (finding, ctx): FixAction[] => {
  const a = finding.access;
  const d = finding.fixes.find((x) => x.kind === 'rekey-record');
  if (d?.kind !== 'rekey-record' || !a.partitionKey) return [];
  const text = ctx.textOf(a.file);
  if (text === null) return [];
  const span = a.partitionKey.span;
  const written = textIn(text, span);
  const action = (title: string, id: string, changes: TextChange[]): FixAction[] => [
    { title, id, rule: finding.rule, preferred: true, safe: false, asks: [], changes },
  ];
  if (d.by)
    return action(
      `Key by ${d.by} (per-key ordering changes: records keep one order per ${d.by}, no longer per ${oneLine(written)})`,
      'rekey-by-entity-id',
      [{ file: a.file, span, newText: d.by }],
    );
  const python = a.language === 'python';
  const constant = literalText(a.partitionKey.template);
  const newText = python ? pythonSuffixed(written, constant, d.suffixes) : jsSuffixed(written, constant, d.suffixes);
  const changes: TextChange[] = [{ file: a.file, span, newText }];
  if (python && !hasRandomImport(text)) {
    const imports = ctx.analysisOf(a.file)?.imports ?? [];
    const none = { value: d.suffixes, name: '', reused: true, declare: null, importChange: null };
    changes.push(...headerChanges(a.file, text, imports, none, { importLines: ['import random'] }));
  }
  return action(
    `Add a random suffix of ${d.suffixes} values to the key (per-key ordering is lost: records with one key no longer keep one order)`,
    'rekey-random-suffix',
    changes,
  );
};

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ');
}

/** A string literal written in place (`'audit'`, `"audit"`), whose text can take the suffix directly. */
function isStringLiteral(written: string, constant: string | null): boolean {
  return constant !== null && /^(['"]).*\1$/s.test(written) && written.slice(1, -1) === constant;
}

function jsSuffixed(written: string, constant: string | null, n: number): string {
  const random = `\${Math.floor(Math.random() * ${n})}`;
  if (isStringLiteral(written, constant) && !/[`$\\]/.test(constant!)) return `\`${constant}#${random}\``;
  return `\`\${${written}}#${random}\``;
}

function pythonSuffixed(written: string, constant: string | null, n: number): string {
  const random = `{random.randrange(${n})}`;
  if (isStringLiteral(written, constant) && !/[{}"\\]/.test(constant!)) return `f"${constant}#${random}"`;
  if (!written.includes('"') && !written.includes('\n')) return `f"{${written}}#${random}"`;
  return `str(${written}) + "#" + str(random.randrange(${n}))`;
}
