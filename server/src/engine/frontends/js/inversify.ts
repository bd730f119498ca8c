/**
 * inversify: a class is given what a container binds under a token
 * (`constructor(@inject(TYPES.Table) private table: string)`), and the container is set up
 * in a module of its own that nothing the class reaches imports
 * (`container.bind<string>(TYPES.Table).toConstantValue(process.env.ORDERS_TABLE!)`). The
 * bindings are read as the project's process-wide connections (`Lookups.connection`, under
 * `inversify:<token>`), so `this.table` is the bound value wherever the class is used.
 */
import type { Node } from 'web-tree-sitter';
import type { EvalContext } from '../../model/eval-context';
import type { ConnectionReader } from '../../model/frontend';
import type { Value } from '../../model/value';
import { newContext } from '../evaluation';
import { decoratedParameterToken } from './nest-models';

/** The packages whose `inject` decorator is read. */
const INVERSIFY = /['"](?:inversify|@inversifyjs\/core)['"]/;

/** How a token is named across modules: its text (`TYPES.Table`), a string's contents (`'Table'`). */
function tokenName(token: Node): string {
  const text = token.text.replace(/\s+/g, '');
  const quoted = /^(['"`])(.*)\1$/.exec(text);
  return `inversify:${quoted ? quoted[2] : text}`;
}

/** `this.<field>` of a parameter property given by `@inject(token)`: what the project's container binds there, or null. */
export function injectedBinding(member: Node, ctx: EvalContext): Value | null {
  const lookup = ctx.lookups.connection;
  if (!lookup || !INVERSIFY.test(member.tree.rootNode.text)) return null;
  const token = decoratedParameterToken(member, 'inject');
  return token ? lookup(tokenName(token)) : null;
}

/** `X.bind(token).toConstantValue(v)`, `.toDynamicValue(() => v)`: the value bound under each token. */
export const inversifyBindings: ConnectionReader = {
  mayHold: (text) => /\.to(?:Constant|Dynamic)Value\s*\(/.test(text) && /\.bind\b/.test(text),
  read: (f, fe) => {
    const ctx = newContext(fe.evaluate, f.lookups, null);
    const out: Array<{ name: string; value: Value }> = [];
    for (const call of f.tree.rootNode.descendantsOfType('call_expression')) {
      const to = call?.childForFieldName('function');
      const how = to?.type === 'member_expression' ? to.childForFieldName('property')?.text : null;
      if (how !== 'toConstantValue' && how !== 'toDynamicValue') continue;
      const bind = to!.childForFieldName('object');
      const bindName = bind?.type === 'call_expression' ? bind.childForFieldName('function') : null;
      if (bindName?.type !== 'member_expression' || bindName.childForFieldName('property')?.text !== 'bind') continue;
      const token = bind!.childForFieldName('arguments')?.namedChild(0);
      let given = call!.childForFieldName('arguments')?.namedChild(0) ?? null;
      // `toDynamicValue(() => process.env.TABLE!)`: what the factory returns.
      if (how === 'toDynamicValue') given = given?.type === 'arrow_function' ? given.childForFieldName('body') : null;
      if (!token || !given || given.type === 'statement_block') continue;
      const value = ctx.evaluate(given, ctx);
      if (value) out.push({ name: tokenName(token), value });
    }
    return out;
  },
};
