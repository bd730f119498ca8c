import { CACHE_HELPERS } from '../../engine';
import { fitPythonBlock } from './fit-lines-python';
import { wrapWords } from './wrap-words';

/**
 * The in-process read cache the cache fix adds once per file: a TTL per entry and
 * single-flight refresh. While an entry is fresh every caller gets a copy of it; once it
 * has expired, the first caller reloads it and the others get the stale value meanwhile
 * (before there is any value, they wait for that one load). N concurrent readers of a hot
 * key therefore make about one request per TTL, and an expiry under load makes one, not
 * N (the thundering herd a plain TTL cache lets through). Each caller gets its own deep
 * copy, so one that changes what it got does not change what the others get.
 */

/** The helpers' names: the engine reads a call through them as cached (`engine/frontends/cached-reads.ts`). */
export const JS_HELPER_NAME = CACHE_HELPERS.js;
export const PY_HELPER_NAME = CACHE_HELPERS.python;

/** The helper's doc comment and body, shared by TypeScript and JavaScript (`clone` casts a value to T). */
function helperBody(clone: (value: string) => string, errorType: string): string {
  return `  let entry = shardlensCache.get(key);
  if (!entry) {
    entry = { loaded: false, expires: 0 };
    shardlensCache.set(key, entry);
  }
  const fresh = entry.loaded && Date.now() < entry.expires;
  if (fresh) return structuredClone(${clone('entry.value')});
  const e = entry;
  if (!e.refreshing) {
    e.refreshing = load().then(
      (value) => {
        const expires = Date.now() + ttlMs;
        Object.assign(e, { value, loaded: true, expires });
        e.refreshing = undefined;
        return value;
      },
      (error${errorType}) => {
        e.refreshing = undefined;
        throw error;
      },
    );
    // A failed refresh behind a stale value is tried again by the next
    // caller. (A block body: \`() => undefined\` is an implicit any with
    // noImplicitAny and no strictNullChecks.)
    e.refreshing.catch(() => {});
  }
  if (e.loaded) return structuredClone(${clone('e.value')});
  return structuredClone(${clone('await e.refreshing')});
}`;
}

const HELPER_DOC = [
  ' * Serves a read from memory for ttlMs. One caller reloads an expired entry; the',
  ' * others get the stale value meanwhile, or wait for the first load: one request',
  ' * per TTL, however many readers.',
];

/**
 * TypeScript: generic over the read's result, so the call keeps its type. Its lines fit 80
 * columns at four spaces a step, as prettier leaves them; the signature is on one line
 * where the project's `width` holds it, else broken as prettier breaks it.
 */
export function tsCacheHelper(width: number): string {
  const params = ['key: string', 'ttlMs: number', 'load: () => Promise<T>'];
  const one = `async function ${JS_HELPER_NAME}<T>(${params.join(', ')}): Promise<T> {`;
  const signature =
    one.length <= width
      ? one
      : [`async function ${JS_HELPER_NAME}<T>(`, ...params.map((p) => `  ${p},`), '): Promise<T> {'].join('\n');
  return `interface ShardlensCacheEntry {
  value?: unknown;
  loaded: boolean;
  expires: number;
  refreshing?: Promise<unknown>;
}

const shardlensCache = new Map<string, ShardlensCacheEntry>();

/**
${HELPER_DOC.join('\n')}
 */
${signature}
${helperBody((v) => (v.startsWith('await') ? `(${v}) as T` : `${v} as T`), ': unknown')}`;
}

/** JavaScript: the same, typed in JSDoc so checkJs keeps the read's result type. */
export function jsCacheHelper(): string {
  return `/**
 * @typedef {object} ShardlensCacheEntry
 * @property {unknown} [value]
 * @property {boolean} loaded
 * @property {number} expires
 * @property {Promise<unknown>} [refreshing]
 */

/** @type {Map<string, ShardlensCacheEntry>} */
const shardlensCache = new Map();

/**
${HELPER_DOC.join('\n')}
 * @template T
 * @param {string} key
 * @param {number} ttlMs
 * @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
async function ${JS_HELPER_NAME}(key, ttlMs, load) {
${helperBody((v) => `/** @type {T} */ (${v})`, '')}`;
}

/**
 * Python, for threads (Lambda, Flask, Django): a lock guards the entries, an Event the one
 * load. Its lines broken as black breaks them at the file's `width`.
 */
export function pythonCacheHelper(width: number): string {
  return fitPythonBlock(
    `_shardlens_cache = {}
_shardlens_cache_lock = threading.Lock()


def ${PY_HELPER_NAME}(key, ttl_seconds, load):
${wrapWords(
  'Serves a read from memory for ttl_seconds. One caller reloads an expired entry; the others get the stale value meanwhile, or wait for the first load: one request per TTL, however many readers. Each caller gets its own copy."""',
  width,
  '    """',
  '    ',
).join('\n')}
    with _shardlens_cache_lock:
        entry = _shardlens_cache.setdefault(key, {"loaded": False, "value": None, "expires": 0.0, "loading": None})
        if entry["loaded"] and time.monotonic() < entry["expires"]:
            return copy.deepcopy(entry["value"])
        loading = entry["loading"]
        leader = loading is None
        if leader:
            loading = entry["loading"] = threading.Event()
        elif entry["loaded"]:
            return copy.deepcopy(entry["value"])
    if not leader:
        loading.wait()
        with _shardlens_cache_lock:
            if entry["loaded"]:
                return copy.deepcopy(entry["value"])
        # The load failed: this caller reads for itself, as without a cache.
        return load()
    try:
        value = load()
    except BaseException:
        with _shardlens_cache_lock:
            entry["loading"] = None
        loading.set()
        raise
    with _shardlens_cache_lock:
        entry.update(loaded=True, value=value, expires=time.monotonic() + ttl_seconds, loading=None)
    loading.set()
    return copy.deepcopy(value)`,
    width,
  );
}

/** The modules the Python helper needs. */
export const PY_HELPER_IMPORTS = ['copy', 'threading', 'time'];
