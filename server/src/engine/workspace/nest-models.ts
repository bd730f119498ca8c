/**
 * The dynamoose model a NestJS service is given by `@InjectModel('User')`: the one the
 * feature module beside it registers under that name (`DynamooseModule.forFeature([{
 * name: 'User', schema: UserSchema }])`), found as Nest apps lay them out: a
 * `*.module.ts` (or `.js`) in the service's folder or one of the four above it, the
 * nearest holding the name winning. The schema is read in the module's own scope, so an
 * imported `UserSchema` is the value its file exports. Several registrations of the name
 * in one folder that differ leave it unknown.
 */
import * as path from 'node:path';
import type { Tree } from 'web-tree-sitter';
import type { SourceLanguage } from '../model';
import type { ImportLookup } from '../model/eval-context';
import type { Value } from '../model/value';
import { newContext } from '../frontends/evaluation';
import { frontEndFor } from '../frontends/registry';
import { literalText } from '../model/template';
import { languageForFile, parse } from '../syntax/parser';

const LEVELS = 5;
const MODULE_FILE = /\.module\.(?:ts|js|mts|mjs)$/;

/** What the search needs of the workspace's modules. */
export interface NestModelHost {
  root: string;
  /** The file names of a folder (empty when it is not one). */
  filesIn(dir: string): string[];
  read(file: string): string | null;
  /** `name` as `module` imports it from `source`. */
  resolve(module: string, language: SourceLanguage, source: string, name: string): Value | null;
}

/** The model and the module file registering it, or null. */
export function registeredModel(
  fromFile: string,
  token: string,
  host: NestModelHost,
): { model: Value; module: string } | null {
  let dir = path.dirname(fromFile);
  for (let level = 0; level < LEVELS; level++) {
    const found = host
      .filesIn(dir)
      .filter((f) => MODULE_FILE.test(f))
      .sort()
      .flatMap((f) => modelsIn(path.join(dir, f), token, host));
    if (found.length) {
      const first = found[0];
      return found.every((f) => f.key === first.key) ? { model: first.model, module: first.module } : null;
    }
    if (path.resolve(dir) === path.resolve(host.root) || path.dirname(dir) === dir) break;
    dir = path.dirname(dir);
  }
  return null;
}

function modelsIn(
  module: string,
  token: string,
  host: NestModelHost,
): Array<{ model: Value; module: string; key: string }> {
  const text = host.read(module);
  const language = languageForFile(module);
  if (!text || !language || !text.includes('forFeature') || !text.includes(token)) return [];
  let tree: Tree;
  try {
    tree = parse(language, text, 1000);
  } catch {
    return [];
  }
  try {
    const fe = frontEndFor(language);
    const imports: ImportLookup = (source, name) => host.resolve(module, language, source, name);
    const ctx = () => newContext(fe.evaluate, { imports });
    const out: Array<{ model: Value; module: string; key: string }> = [];
    for (const r of fe.featureModels?.(tree.rootNode) ?? []) {
      const name = fe.evaluate(r.nameNode, ctx());
      if (name?.kind !== 'scalar' || literalText(name.template) !== token) continue;
      const schema = fe.evaluate(r.schema, ctx());
      const options = r.options ? fe.evaluate(r.options, ctx()) : null;
      if (!schema) continue;
      const args = options ? [name, schema, options] : [name, schema];
      out.push({
        module,
        key: `${r.schema.text}\0${r.options?.text ?? ''}`,
        model: {
          kind: 'object',
          entries: [],
          span: name.span,
          made: { module: 'dynamoose', name: 'model', file: module, args, calls: [] },
        },
      });
    }
    return out;
  } finally {
    tree.delete();
  }
}
