/**
 * NestJS with nestjs-dynamoose: a service is given its dynamoose model by the framework
 * (`constructor(@InjectModel('User') private readonly userModel: Model<User, UserKey>)`),
 * the model a feature module registers under that name
 * (`DynamooseModule.forFeature([{ name: 'User', schema: UserSchema, options }])`, in the
 * module's `@Module({ imports })`), which is `dynamoose.model(name, schema, options)`.
 * This reads both sides' syntax; the workspace finds the module (`workspace/nest-models.ts`).
 */
import type { Node } from 'web-tree-sitter';
import type { FeatureModel } from '../../model/frontend';
import { CLASS_TYPES } from './classes';

/** The package whose `InjectModel` and `DynamooseModule` are read. */
export const NEST_DYNAMOOSE = 'nestjs-dynamoose';

/**
 * The argument of the `@InjectModel(...)` decorator on the constructor parameter property
 * `this.<field>` names, when the file imports `InjectModel` from nestjs-dynamoose
 * (`@nestjs/mongoose` has one of the same name).
 */
export function injectedModelToken(member: Node): Node | null {
  return importsInjectModel(member.tree.rootNode) ? decoratedParameterToken(member, 'InjectModel') : null;
}

/**
 * The first argument of the `@<decorator>(...)` on the constructor parameter property that
 * `this.<field>` names (`@InjectModel('User') private readonly userModel`, inversify's
 * `@inject(TYPES.Table) private table: string`), or null.
 */
export function decoratedParameterToken(member: Node, decorator: string): Node | null {
  const field = member.childForFieldName('property')?.text;
  let cls: Node | null = member.parent;
  while (cls && !CLASS_TYPES.includes(cls.type)) cls = cls.parent;
  if (!field || !cls) return null;
  const ctor = (cls.childForFieldName('body')?.namedChildren ?? []).find(
    (m) => m?.type === 'method_definition' && m.childForFieldName('name')?.text === 'constructor',
  );
  for (const p of ctor?.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.childForFieldName('pattern')?.text !== field) continue;
    for (const d of p.children) {
      const call = d?.type === 'decorator' ? d.namedChild(0) : null;
      if (call?.type !== 'call_expression' || call.childForFieldName('function')?.text !== decorator) continue;
      return call.childForFieldName('arguments')?.namedChild(0) ?? null;
    }
  }
  return null;
}

function importsInjectModel(root: Node): boolean {
  return root.namedChildren.some(
    (s) =>
      s?.type === 'import_statement' &&
      s.childForFieldName('source')?.text.slice(1, -1) === NEST_DYNAMOOSE &&
      /\bInjectModel\b/.test(s.text),
  );
}

/**
 * The models a module's `DynamooseModule.forFeature([{ name, schema, options }])` calls
 * register, and its `forFeatureAsync([{ name, useFactory: () => schema, options }])` calls:
 * nestjs-dynamoose makes the model from what the factory returns, so the schema is the
 * factory's returned expression (an arrow's body, or a block's one `return`), or the
 * factory's name when it is given by name (`useFactory: ticketSchemaFactory`).
 */
export function featureModels(root: Node): FeatureModel[] {
  const out: FeatureModel[] = [];
  for (const call of dynamooseModuleCalls(root, /^forFeature(Async)?$/)) {
    const async = call.childForFieldName('function')?.childForFieldName('property')?.text === 'forFeatureAsync';
    const list = call.childForFieldName('arguments')?.namedChild(0);
    for (const item of list?.type === 'array' ? list.namedChildren : []) {
      if (item?.type !== 'object') continue;
      const props = properties(item);
      const nameNode = props.get('name');
      const factory = props.get('useFactory');
      // A factory given by name (`useFactory: ticketSchemaFactory`): the reader follows the name.
      const byName = async && factory?.type === 'identifier';
      const schema = byName ? factory : async ? (factory ? returned(factory) : null) : props.get('schema');
      if (!nameNode || !schema) continue;
      out.push({ nameNode, schema, options: props.get('options') ?? null, ...(byName ? { factoryName: true } : {}) });
    }
  }
  return out;
}

/**
 * The options `DynamooseModule.forRoot(options)` gives dynamoose (or the object a
 * `forRootAsync({ useFactory })` factory returns): nestjs-dynamoose sets `options.table` as
 * the defaults of every table (`Table.defaults.set`), so its `prefix` and `suffix` frame every
 * model's table name.
 */
export function rootModelOptions(root: Node): Node[] {
  const out: Node[] = [];
  for (const call of dynamooseModuleCalls(root, /^forRoot(Async)?$/)) {
    const arg = call.childForFieldName('arguments')?.namedChild(0);
    if (!arg) continue;
    if (call.childForFieldName('function')?.childForFieldName('property')?.text === 'forRoot') out.push(arg);
    else if (arg.type === 'object') {
      const factory = properties(arg).get('useFactory');
      const options = factory ? returned(factory) : null;
      if (options) out.push(options);
    }
  }
  return out;
}

function dynamooseModuleCalls(root: Node, method: RegExp): Node[] {
  return root.descendantsOfType('call_expression').filter((call): call is Node => {
    const fn = call?.childForFieldName('function');
    return (
      fn?.type === 'member_expression' &&
      method.test(fn.childForFieldName('property')?.text ?? '') &&
      fn.childForFieldName('object')?.text === 'DynamooseModule'
    );
  });
}

/** An object literal's properties by key, shorthand ones included. */
function properties(obj: Node): Map<string, Node> {
  const props = new Map<string, Node>();
  for (const pair of obj.namedChildren)
    if (pair?.type === 'pair') {
      const key = pair.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
      const value = pair.childForFieldName('value');
      if (key && value) props.set(key, value);
    } else if (pair?.type === 'shorthand_property_identifier') props.set(pair.text, pair);
    else if (pair?.type === 'method_definition') {
      const key = pair.childForFieldName('name')?.text;
      if (key) props.set(key, pair);
    }
  return props;
}

/** What a factory written in place returns: an arrow's expression, or a body's one `return`. */
function returned(fn: Node): Node | null {
  const unwrapped = fn.type === 'parenthesized_expression' ? fn.namedChild(0) : fn;
  if (!unwrapped || !['arrow_function', 'function_expression', 'method_definition'].includes(unwrapped.type))
    return null;
  const body = unwrapped.childForFieldName('body');
  if (!body) return null;
  if (body.type !== 'statement_block') return body.type === 'parenthesized_expression' ? body.namedChild(0) : body;
  const returns = body.descendantsOfType('return_statement');
  return returns.length === 1 ? (returns[0]?.namedChild(0) ?? null) : null;
}
