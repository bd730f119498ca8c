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
  const field = member.childForFieldName('property')?.text;
  let cls: Node | null = member.parent;
  while (cls && !CLASS_TYPES.includes(cls.type)) cls = cls.parent;
  if (!field || !cls || !importsInjectModel(member.tree.rootNode)) return null;
  const ctor = (cls.childForFieldName('body')?.namedChildren ?? []).find(
    (m) => m?.type === 'method_definition' && m.childForFieldName('name')?.text === 'constructor',
  );
  for (const p of ctor?.childForFieldName('parameters')?.namedChildren ?? []) {
    if (p?.childForFieldName('pattern')?.text !== field) continue;
    for (const d of p.children) {
      const call = d?.type === 'decorator' ? d.namedChild(0) : null;
      if (call?.type !== 'call_expression' || call.childForFieldName('function')?.text !== 'InjectModel') continue;
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

/** The models a module's `DynamooseModule.forFeature([{ name, schema, options }])` calls register. */
export function featureModels(root: Node): FeatureModel[] {
  const out: FeatureModel[] = [];
  for (const call of root.descendantsOfType('call_expression')) {
    const fn = call?.childForFieldName('function');
    if (fn?.type !== 'member_expression' || fn.childForFieldName('property')?.text !== 'forFeature') continue;
    if (fn.childForFieldName('object')?.text !== 'DynamooseModule') continue;
    const list = call!.childForFieldName('arguments')?.namedChild(0);
    for (const item of list?.type === 'array' ? list.namedChildren : []) {
      if (item?.type !== 'object') continue;
      const props = new Map<string, Node>();
      for (const pair of item.namedChildren)
        if (pair?.type === 'pair') {
          const key = pair.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
          const value = pair.childForFieldName('value');
          if (key && value) props.set(key, value);
        } else if (pair?.type === 'shorthand_property_identifier') props.set(pair.text, pair);
      const nameNode = props.get('name');
      const schema = props.get('schema');
      if (!nameNode || !schema) continue;
      out.push({ nameNode, schema, options: props.get('options') ?? null });
    }
  }
  return out;
}
