/**
 * What a hash in front of `% N` hashes: `hash(tenantId)`, `crc32(tenantId)`,
 * `murmurhash.v3(tenantId)`, `createHash('md5').update(tenantId).digest('hex')` read
 * through `parseInt(..., 16)`, Python's `int(hashlib.md5(tenant_id.encode()).hexdigest(), 16)`,
 * `zlib.crc32(...)`, `mmh3.hash(...)`. The steps that only turn the digest into a number
 * (`Math.abs`, `parseInt`, `.readUInt32BE(0)`, `int.from_bytes`, `[:8]`) are read through;
 * so are those that only turn the hashed value into text or bytes (`String(x)`, `x.encode()`).
 */
import type { Node } from 'web-tree-sitter';
import { inner, lastName, positional, type Shapes } from './syntax';

/** Names of functions that hash their first argument. */
const HASH =
  /^(hash|hash_?code|hash_?string|hash32|hash64|stable_?hash|crc|crc32c?|adler32|md5|sha1|sha256|sha512|murmur\w*|mmh3\w*|fnv\w*|xxh\w*|xxhash\w*|farmhash\w*|cityhash\w*|\w*_hash|\w*Hash)$/i;
/** Functions and methods that pass a number on from their first argument. */
const NUMBER_OF = new Set(['abs', 'int', 'Number', 'BigInt', 'parseInt', 'from_bytes', 'toNumber', 'floor']);
/** Methods that read a number or text out of a digest object: the digest is their receiver. */
const DIGEST_READS =
  /^(digest|hexdigest|intdigest|hex|dec|readUInt32BE|readUInt32LE|readInt32BE|readInt32LE|readBigUInt64BE|readBigUInt64LE|slice|substring|substr|toString|toNumber|toInt)$/;
/** `createHash('md5').update(x)`: `update` hashes its argument when the chain starts at a hash. */
const UPDATE = /^(update|hash)$/;
/** Calls that pass a value's text on unchanged. */
const TEXT_OF = new Set(['String', 'str', 'bytes', 'from']);
const TEXT_METHODS = new Set(['toString', 'encode', 'toLowerCase', 'lower', 'trim', 'strip']);

/** The hashed value of a hash expression, or null when `n` is not one. */
export function hashedValue(n: Node, s: Shapes, depth = 0): Node | null {
  const at = inner(n, s);
  if (depth > 8) return null;
  if (at.type === 'identifier') {
    // `const digest = createHash('md5').update(tenantId).digest(); digest.readUInt32BE(0) % N`
    const bound = boundBefore(at, s);
    const hashed = bound ? hashedValue(bound, s, depth + 1) : null;
    return hashed ?? (HASH_VARIABLE.test(at.text) ? loopHashed(at, s) : null);
  }
  if (at.type === s.subscript) {
    const of = at.childForFieldName(s.subscriptObject);
    return of ? hashedValue(of, s, depth + 1) : null;
  }
  // fnv-plus: `fnv.hash(tenantId).value`.
  if (at.type === s.member && lastName(at, s) === 'value') {
    const of = at.childForFieldName('object');
    return of ? hashedValue(of, s, depth + 1) : null;
  }
  if (at.type !== s.call) return null;
  const callee = at.childForFieldName('function');
  if (!callee) return null;
  const name = lastName(callee, s);
  const args = positional(at);
  const receiver = callee.type === s.member ? callee.childForFieldName('object') : null;
  if (receiver && DIGEST_READS.test(name)) return hashedValue(receiver, s, depth + 1);
  if (receiver && UPDATE.test(name) && startsAtHash(receiver, s) && args[0]) return textOf(args[0], s);
  if (NUMBER_OF.has(name) && args[0]) return hashedValue(args[0], s, depth + 1);
  if (HASH.test(name) && args[0]) return textOf(args[0], s);
  // A hash module's function: `crc32.str(x)`, `murmurhash.v3(x)`, `xxhash.h32(x)`.
  if (receiver && HASH.test(lastName(receiver, s)) && args[0]) return textOf(args[0], s);
  return null;
}

/** Whether a call chain starts at a hash's constructor: `createHash('md5')`, `crypto.createHash(...)`, `new XXHash(...)`. */
function startsAtHash(n: Node, s: Shapes): boolean {
  for (let at: Node | null = inner(n, s); at;) {
    if (at.type === s.call || at.type === 'new_expression') {
      const callee: Node | null = at.childForFieldName('function') ?? at.childForFieldName('constructor');
      if (callee && /hash|md5|sha|murmur|xxh|crc/i.test(lastName(callee, s) || callee.text)) return true;
      at = callee?.type === s.member ? callee.childForFieldName('object') : null;
    } else if (at.type === s.member) at = at.childForFieldName('object');
    else return false;
  }
  return false;
}

/** `String(x)`, `x.toString()`, `str(x)`, `x.encode()`, `Buffer.from(x)`, `` `${x}` ``, `f"{x}"`: `x`. */
export function textOf(n: Node, s: Shapes): Node {
  const at = inner(n, s);
  if (at.type === s.call) {
    const callee = at.childForFieldName('function');
    const args = positional(at);
    const name = callee ? lastName(callee, s) : '';
    if (TEXT_OF.has(name) && args[0]) return textOf(args[0], s);
    const receiver = callee?.type === s.member ? callee.childForFieldName('object') : null;
    if (receiver && TEXT_METHODS.has(name)) return textOf(receiver, s);
  }
  // A template or f-string holding one substitution and nothing else.
  if (at.type === 'template_string' || at.type === 'string') {
    const subs = at.namedChildren.filter(
      (c) => c && (c.type === 'template_substitution' || c.type === 'interpolation'),
    );
    const literal = at.namedChildren.some((c) => c && c.type === 'string_content' && c.text.length > 0);
    if (subs.length === 1 && !literal && at.text.replace(subs[0]!.text, '').replace(/^f?['"`]+|['"`]+$/g, '') === '') {
      const expr = subs[0]!.namedChildren.find((c) => c && c.type !== 'comment');
      if (expr) return textOf(expr, s);
    }
  }
  return at;
}

/** A variable a hash is computed into by hand: `hash`, `h`, `hashValue`. */
const HASH_VARIABLE = /^(h|hash\w*|\w*Hash|\w*_hash)$/i;
const LOOPS = new Set(['for_statement', 'for_in_statement']);

/**
 * A hash written out as a loop in the function (`for (const c of tenantId) hash = hash * 31 +
 * c.charCodeAt(0)`, `for (let i = 0; i < s.length; i++) h = ... s.charCodeAt(i)`, Python's
 * `for ch in tenant_id: h = h * 31 + ord(ch)`): what the loop reads the characters of, when
 * the loop assigns the hash variable.
 */
function loopHashed(name: Node, s: Shapes): Node | null {
  let scope: Node | null = name.parent;
  while (scope && !s.functions.includes(scope.type)) scope = scope.parent;
  if (!scope) return null;
  for (const loop of nodesOf(scope, (n) => LOOPS.has(n.type) && n.endIndex <= name.startIndex)) {
    const body = loop.childForFieldName('body');
    const assigns = nodesOf(body ?? loop, (n) =>
      /assignment/.test(n.type) ? n.childForFieldName('left')?.text === name.text : false,
    );
    if (assigns.length === 0) continue;
    const over = loop.childForFieldName('right');
    if (over) return over;
    // `s.charCodeAt(i)` / `ord(s[i])`: the string read one character at a time.
    for (const call of nodesOf(loop, (n) => n.type === s.call)) {
      const callee = call.childForFieldName('function');
      const name = callee ? lastName(callee, s) : '';
      if (callee?.type === s.member && /^(charCodeAt|codePointAt)$/.test(name))
        return callee.childForFieldName('object');
      const arg = positional(call)[0];
      if (name === 'ord' && arg?.type === s.subscript) return arg.childForFieldName(s.subscriptObject);
    }
  }
  return null;
}

function nodesOf(root: Node, keep: (n: Node) => boolean): Node[] {
  const out: Node[] = [];
  const visit = (n: Node) => {
    if (keep(n)) out.push(n);
    for (const c of n.namedChildren) if (c) visit(c);
  };
  visit(root);
  return out;
}

/** The value a local name was last given before `name`, in the function around it: `h = md5(...)`. */
function boundBefore(name: Node, s: Shapes): Node | null {
  let scope: Node | null = name.parent;
  while (scope && !s.functions.includes(scope.type)) scope = scope.parent;
  if (!scope) return null;
  let found: Node | null = null;
  const visit = (n: Node) => {
    if (n.startIndex >= name.startIndex) return;
    const target =
      n.type === 'variable_declarator'
        ? n.childForFieldName('name')
        : n.type === 'assignment'
          ? n.childForFieldName('left')
          : null;
    const value = n.childForFieldName(n.type === 'variable_declarator' ? 'value' : 'right');
    if (target?.text === name.text && value) found = value;
    for (const c of n.namedChildren) if (c) visit(c);
  };
  visit(scope);
  return found;
}
