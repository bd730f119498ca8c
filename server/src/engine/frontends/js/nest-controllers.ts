/**
 * Entry points declared by decorators: NestJS and routing-controllers controllers
 * (`@Controller('votes')` + `@Get(':id')`), inversify-express-utils (`@controller` +
 * `@httpGet`), and NestJS schedules (`@Cron('0 * * * *')`, `@Interval`).
 */
import type { Node } from 'web-tree-sitter';
import { entryPoint } from '../file-reach';
import { parseRate } from '../schedule-rates';
import type { ReachPart } from '../../model/entry-point';
import { spanOf } from '../../syntax/span';

const NEST_ROUTES = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Head', 'Options']);
/**
 * Class decorators that make a controller: NestJS's and routing-controllers' `@Controller`,
 * routing-controllers' `@JsonController`, inversify-express-utils' `@controller`.
 */
const CONTROLLERS = new Set(['Controller', 'JsonController', 'controller']);
/** A route decorator's HTTP method: NestJS / routing-controllers `@Get`, inversify-express-utils `@httpGet`, `@all`. */
function routeMethod(decorator: string): string | null {
  if (NEST_ROUTES.has(decorator)) return decorator === 'All' ? 'ANY' : decorator.toUpperCase();
  const http = /^http(Get|Post|Put|Patch|Delete|Head|Options)$/.exec(decorator);
  if (http) return http[1].toUpperCase();
  return decorator === 'all' ? 'ANY' : null;
}

/** Decorators written on a class or a class member: before it in the class body, or as its own children. */
export function decoratorsOf(n: Node): Node[] {
  const own = n.namedChildren.filter((c) => c.type === 'decorator');
  const before: Node[] = [];
  for (let p = n.previousNamedSibling; p?.type === 'decorator'; p = p.previousNamedSibling) before.push(p);
  const outer =
    n.parent?.type === 'export_statement' ? n.parent.namedChildren.filter((c) => c.type === 'decorator') : [];
  return [...own, ...before, ...outer];
}

/** `@Get('x')` → `Get` and its first string argument. */
function decorator(d: Node): { name: string; arg: string | null } {
  const call = d.namedChildren[0];
  if (call?.type !== 'call_expression') return { name: call?.text ?? '', arg: null };
  const first = call.childForFieldName('arguments')?.namedChildren[0];
  const arg = first && /^['"`]/.test(first.text) ? first.text.slice(1, -1) : null;
  return { name: call.childForFieldName('function')?.text ?? '', arg };
}

export function readNestController(cls: Node, seen: ReachPart, file: string): void {
  const controller = decoratorsOf(cls)
    .map(decorator)
    .find((d) => CONTROLLERS.has(d.name));
  const body = cls.childForFieldName('body');
  if (!body) return;
  for (const m of body.namedChildren) {
    if (m.type !== 'method_definition') continue;
    const method = m.childForFieldName('name')?.text ?? null;
    for (const d of decoratorsOf(m).map(decorator)) {
      const verb = controller ? routeMethod(d.name) : null;
      if (verb) {
        const route = ['', controller!.arg ?? '', d.arg ?? '']
          .join('/')
          .replace(/\/+/g, '/')
          .replace(/(.)\/$/, '$1');
        const name = `${verb} ${route}`;
        seen.entries.push({ entry: entryPoint('api', name, file, method, spanOf(m), name), span: spanOf(m) });
      } else if (d.name === 'Cron' || d.name === 'Interval') {
        const rate = d.arg ? parseRate(`cron(${d.arg})`) : null;
        const trigger = d.name === 'Cron' ? `cron(${d.arg ?? '…'})` : 'interval';
        const entry = entryPoint('schedule', trigger, file, method, spanOf(m), trigger, rate?.ratePerHour ?? null);
        seen.entries.push({ entry, span: spanOf(m) });
      }
    }
  }
}
