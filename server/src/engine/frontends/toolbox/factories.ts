/**
 * Entities a factory function makes: `export const User = createUserEntity(AppTable)`, where
 * `createUserEntity = (table: Table) => new Entity({ name: 'User', attributes, table })` is
 * written in the module or imported, or a shared helper `createEntity('Post', AppTable, {
 * ...attributes })`. The evaluator reads such a call as what the factory returns, its
 * parameters bound to the call's arguments (`frontends/js/returns.ts`, `wrappers/instantiate.ts`),
 * so calls on `User` are read as on a direct `new Entity`. Here the module-level declarations
 * holding one are found: for the schema's own sites, and for the module to count as one that
 * declares models, so that its importers are read.
 */
import type { Node, Tree } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import type { Value } from '../../model/value';
import { entitySchema } from './schema';

/**
 * A module-level `const User = createUserEntity(...)` (a callee named `...Entity`, not `new
 * Entity`), or a factory given the table (`const User = makeUser(table)`): a factory's name alone
 * (`createLogger()`) would make every such module one that declares models, read for its importers.
 */
const FACTORY_DECLARATION =
  /^(?:export\s+)?(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=\s*(?:await\s+)?(?:[\w$]*Entity\s*\(|(?:make|create|build|define|init)[A-Z][\w$]*\s*\([^)\n]*\b[\w$]*[Tt]able\b)/m;

/**
 * Whether a module's text may declare an entity by calling a factory (the cheap test before any
 * reading). Both forms name `Entity` or `[Tt]able`, looked for before the line-anchored pattern runs.
 */
export function mayDeclareByFactory(text: string): boolean {
  return (text.includes('Entity') || text.includes('able')) && FACTORY_DECLARATION.test(text);
}

const FOUND = new WeakMap<Tree, Array<{ call: Node; value: Value }>>();

/** The module-level calls of the file whose value is a toolbox entity, each with its value; read once per tree. */
export function factoryEntities(root: Node, ctx: EvalContext): Array<{ call: Node; value: Value }> {
  let out = FOUND.get(root.tree);
  if (out) return out;
  out = [];
  for (const call of moduleLevelCalls(root)) {
    const value = ctx.evaluate(call, ctx);
    if (value && entitySchema(value)) out.push({ call, value });
  }
  FOUND.set(root.tree, out);
  return out;
}

/** `const X = f(...)` at the top of the module (exported or not): the calls of a named function. */
function moduleLevelCalls(root: Node): Node[] {
  const out: Node[] = [];
  for (const stmt of root.namedChildren) {
    const decl = stmt?.type === 'export_statement' ? stmt.childForFieldName('declaration') : stmt;
    if (decl?.type !== 'lexical_declaration' && decl?.type !== 'variable_declaration') continue;
    for (const d of decl.namedChildren) {
      let v = d?.type === 'variable_declarator' ? d.childForFieldName('value') : null;
      if (v?.type === 'await_expression') v = v.namedChild(0);
      if (v?.type === 'call_expression' && v.childForFieldName('function')?.type === 'identifier') out.push(v);
    }
  }
  return out;
}
