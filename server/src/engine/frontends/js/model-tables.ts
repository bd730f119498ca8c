/**
 * What a module says of a model beside its declaration. dynamoose 3 and 4 store a model
 * in a table of its own named for it, unless a `new dynamoose.Table("catalog", [Product,
 * Review], options)` of the module holds it; either way the table's name takes the
 * `prefix` and `suffix` of its options, else of `dynamoose.Table.defaults.set({...})`
 * (dynamoose's `combine_objects(options, defaults)`). Read from the model's own module:
 * where the model is declared is where apps write both.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import type { Construction, Value } from '../../model/value';
import { spanOf } from '../../syntax/span';
import { resolve } from './scope';

type Imported = (n: Node, ctx: EvalContext) => { module: string; name: string } | null;
type Argument = (n: Node, ctx: EvalContext) => Value;

/** `joins` (the table holding the model: its name and options) and `settings` (the defaults set) of a model's module. */
export function moduleTables(
  call: Node,
  ctx: EvalContext,
  imported: Imported,
  argument: Argument,
): Pick<Construction, 'joins' | 'settings'> {
  const name = boundName(call);
  const root = call.tree.rootNode;
  const joins: Construction[] = [];
  const settings: Value[] = [];
  for (const n of root.descendantsOfType('new_expression')) {
    const ctor = n?.childForFieldName('constructor');
    const made = ctor ? imported(ctor, ctx) : null;
    if (!n || made?.module !== 'dynamoose' || made.name !== 'Table' || !name) continue;
    const [tableName, models, options] = n.childForFieldName('arguments')?.namedChildren ?? [];
    // Only the table's name and options: the models are what is being read.
    if (!tableName || models?.type !== 'array' || !models.namedChildren.some((m) => m?.text === name)) continue;
    const args = [argument(tableName, ctx), ...(options ? [argument(options, ctx)] : [])];
    joins.push({ module: 'dynamoose', name: 'Table', file: '', args });
  }
  for (const n of root.descendantsOfType('call_expression')) {
    const fn = n?.childForFieldName('function');
    if (!n || fn?.type !== 'member_expression' || !/\.\s*Table\s*\.\s*defaults\s*\.\s*set$/.test(fn.text)) continue;
    if (!fromDynamoose(fn, ctx)) continue;
    const first = n.childForFieldName('arguments')?.namedChild(0);
    if (first) settings.push({ ...argument(first, ctx), span: spanOf(first) });
  }
  return { ...(joins.length ? { joins } : {}), ...(settings.length ? { settings } : {}) };
}

/** `const Product = dynamoose.model(...)`, also exported: the name the module binds it to. */
function boundName(call: Node): string | null {
  let n: Node | null = call.parent;
  while (n && /^(as_expression|satisfies_expression|parenthesized_expression|non_null_expression)$/.test(n.type))
    n = n.parent;
  return n?.type === 'variable_declarator' ? (n.childForFieldName('name')?.text ?? null) : null;
}

/** The chain's root (`dynamoose` of `dynamoose.Table.defaults.set`) is the package imported. */
function fromDynamoose(fn: Node, ctx: EvalContext): boolean {
  let root: Node | null = fn;
  while (root?.type === 'member_expression') root = root.childForFieldName('object');
  if (root?.type !== 'identifier') return false;
  const b = resolve(root, ctx);
  return b?.kind === 'import' && b.source === 'dynamoose';
}
