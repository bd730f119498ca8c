/**
 * The AWS service integrations of a template's REST APIs: each `uri`
 * (`arn:aws:apigateway:${AWS::Region}:dynamodb:action/GetItem`, `…:states:action/StartExecution`)
 * with its VTL request templates and the route it answers. Read from an API's OpenAPI body —
 * inline (`DefinitionBody`, `Body`), included (`Fn::Transform: AWS::Include`) or in a file
 * (`DefinitionUri`) — and from `AWS::ApiGateway::Method` integrations. API Gateway's importer
 * takes YAML the strict parser refuses (a quoted template whose continuation lines are indented
 * less than its first, as public apps write it): such a file is read from its text.
 */
import * as path from 'node:path';
import type { SourceRange } from '../../model';
import type { InfraFiles } from './handlers';
import { at, entriesOf, get, intrinsic, itemsOf, parseTree, scalarText, type TNode } from './tree';

export const API_TYPES = new Set(['AWS::Serverless::Api', 'AWS::ApiGateway::RestApi', 'AWS::ApiGateway::Method']);

export interface ApiIntegration {
  /** The API's logical id, with the route when the body names it: `OrdersApi GET /orders/{id}`. */
  owner: string;
  /** The route alone (`GET /orders/{id}`), when the body names it. */
  route: string | null;
  /** The service and action the `uri` names: `dynamodb` `GetItem`, `states` `StartExecution`. */
  service: string;
  action: string;
  /** The request templates' texts (`Fn::Sub` ones as written, `${X}` kept). */
  templates: string[];
  source: SourceRange;
}

/** A file of the template's folder, parsed (root null when malformed); null when absent or on S3. */
export type ReadFile = (uri: string) => { root: TNode | null; text: string; file: string } | null;

export function templateFiles(file: string, files: InfraFiles): ReadFile {
  return (uri) => {
    if (/^s3:/.test(uri)) return null;
    const target = path.join(path.dirname(file), uri);
    const text = files.read(target);
    return text === null ? null : { root: parseTree(text).root, text, file: target };
  };
}

const ACTION = /:(\w+):action\/(\w+)/;

/** Every service integration of one API resource's properties. */
export function apiIntegrations(id: string, props: TNode | undefined, file: string, read: ReadFile): ApiIntegration[] {
  const out: ApiIntegration[] = [];
  const body = get(props, 'DefinitionBody') ?? get(props, 'Body');
  const include = intrinsic(body)?.fn === 'Fn::Transform' ? intrinsic(body)!.arg : null;
  const included =
    include && scalarText(get(include, 'Name')) === 'AWS::Include'
      ? scalarText(at(include, 'Parameters', 'Location'))
      : null;
  for (const own of [included, scalarText(get(props, 'DefinitionUri'))]) {
    const r = own ? read(own) : null;
    if (r?.root) out.push(...integrationsUnder(id, r.root, r.file));
    else if (r) out.push(...textIntegrations(id, r.text, r.file));
  }
  if (body && !include) out.push(...integrationsUnder(id, body, file));
  const integration = get(props, 'Integration');
  if (integration) out.push(...integrationsUnder(id, integration, file));
  return out;
}

/** Each integration under `root`: a map with a `uri` naming a service action, and its request templates. */
function integrationsUnder(owner: string, root: TNode, file: string): ApiIntegration[] {
  const out: ApiIntegration[] = [];
  eachMap(root, (m, trail) => {
    const uri = get(m, 'uri') ?? get(m, 'Uri');
    const action = ACTION.exec(subText(uri) ?? '');
    if (!action) return;
    const route = routeOf(trail);
    const templates = entriesOf(get(m, 'requestTemplates') ?? get(m, 'RequestTemplates'))
      .map((t) => subText(t.value))
      .filter((t): t is string => t !== null);
    out.push({
      owner: route ? `${owner} ${route}` : owner,
      route,
      service: action[1],
      action: action[2],
      templates,
      source: { file, span: uri!.span },
    });
  });
  return out;
}

/** The integrations of an OpenAPI file that did not parse: each action up to the next, its template unescaped. */
function textIntegrations(owner: string, text: string, file: string): ApiIntegration[] {
  const actions = [...text.matchAll(new RegExp(ACTION.source, 'g'))];
  return actions.map((m, i) => {
    const end = actions[i + 1]?.index ?? text.length;
    const unescaped = text
      .slice(m.index, end)
      .replace(/\\\r?\n[ \t]*/g, '')
      .replace(/\\(["\\ n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const lines = text.slice(0, m.index).split('\n');
    const line = lines.length - 1;
    const route = routeAbove(lines);
    return {
      owner: route ? `${owner} ${route}` : owner,
      route,
      service: m[1],
      action: m[2],
      templates: [unescaped],
      source: { file, span: { startLine: line, startColumn: 0, endLine: line, endColumn: 0 } },
    };
  });
}

/** A scalar's text, or the text a `Fn::Sub` writes (its first item when given a list). */
export function subText(n: TNode | undefined): string | null {
  const i = intrinsic(n);
  if (i?.fn === 'Fn::Sub') return scalarText(i.arg) ?? scalarText(itemsOf(i.arg)[0]);
  return scalarText(n);
}

/** `GET /orders/{id}` from the keys leading to an OpenAPI operation. */
function routeOf(trail: readonly string[]): string | null {
  const i = trail.indexOf('paths');
  return i >= 0 && trail.length > i + 2 ? `${trail[i + 2].toUpperCase()} ${trail[i + 1]}` : null;
}

/** `GET /orders/{id}`: the OpenAPI method and path keys last written above a line, by their spelling alone. */
function routeAbove(lines: readonly string[]): string | null {
  let method: string | null = null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^\s*(get|put|post|delete|patch|head|options|x-amazon-apigateway-any-method):\s*$/.exec(lines[i]);
    if (!method && m) method = m[1] === 'x-amazon-apigateway-any-method' ? 'ANY' : m[1].toUpperCase();
    const p = /^\s*['"]?(\/[^:'"]*)['"]?:\s*$/.exec(lines[i]);
    if (method && p) return `${method} ${p[1]}`;
  }
  return null;
}

/** Every map of a tree, depth first to a bounded depth, with the keys leading to it. */
export function eachMap(n: TNode | undefined, visit: (m: TNode, trail: string[]) => void, trail: string[] = []): void {
  if (!n || trail.length > 40) return;
  if (n.kind === 'map') {
    visit(n, trail);
    for (const e of n.entries) eachMap(e.value, visit, [...trail, e.key]);
  } else if (n.kind === 'seq') for (const item of n.items) eachMap(item, visit, trail);
}
