/**
 * tRPC procedures as entry points: `publicProcedure.input(schema).mutation(async ({ input })
 * => …)`, `t.procedure.query(list)`, each the value of a key of a router (`router({ vote:
 * … })`, `t.router`, T3's `createTRPCRouter`). A client calls each one over HTTP as it would
 * a route, whichever adapter serves the router (a Lambda, Next.js, a standalone server), so
 * each is an API entry point named by its path in the routers of its file (`poll.vote`).
 */
import type { Node } from 'web-tree-sitter';

const KINDS = new Set(['query', 'mutation', 'subscription']);

/**
 * `<procedure chain>.query|mutation|subscription(handler)`: the route name of the procedure
 * (`tRPC mutation poll.vote`), or null for any other call (`db.query(sql)`, `client.mutation(...)`).
 */
export function trpcProcedureName(call: Node, callee: Node, method: string): string | null {
  if (!KINDS.has(method)) return null;
  const receiver = callee.childForFieldName('object');
  // The chain starts at a procedure builder: `publicProcedure`, `protectedProcedure.use(auth)`, `t.procedure`.
  if (!receiver || !/^(?:[\w$]+\.)*[\w$]*[pP]rocedure\b/.test(receiver.text)) return null;
  const keys: string[] = [];
  for (let at: Node | null = call; at; at = at.parent) {
    if (at.type !== 'pair') continue;
    const key = at.childForFieldName('key');
    if (key) keys.unshift(key.text.replace(/^['"`]|['"`]$/g, ''));
  }
  return `tRPC ${method} ${keys.length ? keys.join('.') : '(unnamed)'}`;
}
