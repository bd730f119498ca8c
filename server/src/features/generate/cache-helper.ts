import { CACHE_HELPERS } from '../../engine';

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

/** TypeScript: generic over the read's result, so the call keeps its type. */
export function tsCacheHelper(): string {
  return `interface ShardlensCacheEntry {
  value?: unknown;
  loaded: boolean;
  expires: number;
  refreshing?: Promise<unknown>;
}

const shardlensCache = new Map<string, ShardlensCacheEntry>();

/**
 * Serves a read from memory for ttlMs. One caller reloads an expired entry; the others get the
 * stale value meanwhile, or wait for the first load: one request per TTL, however many readers.
 */
async function ${JS_HELPER_NAME}<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  let entry = shardlensCache.get(key);
  if (!entry) shardlensCache.set(key, (entry = { loaded: false, expires: 0 }));
  if (entry.loaded && Date.now() < entry.expires) return structuredClone(entry.value as T);
  const e = entry;
  if (!e.refreshing) {
    e.refreshing = load().then(
      (value) => {
        Object.assign(e, { value, loaded: true, expires: Date.now() + ttlMs, refreshing: undefined });
        return value;
      },
      (error: unknown) => {
        e.refreshing = undefined;
        throw error;
      },
    );
    // A failed refresh behind a stale value is tried again by the next caller. (A block
    // body: \`() => undefined\` is an implicit any with noImplicitAny and no strictNullChecks.)
    e.refreshing.catch(() => {});
  }
  if (e.loaded) return structuredClone(e.value as T);
  return structuredClone((await e.refreshing) as T);
}`;
}

/** JavaScript: the same, typed in JSDoc so checkJs keeps the read's result type. */
export function jsCacheHelper(): string {
  return `/** @type {Map<string, { value?: unknown, loaded: boolean, expires: number, refreshing?: Promise<unknown> }>} */
const shardlensCache = new Map();

/**
 * Serves a read from memory for ttlMs. One caller reloads an expired entry; the others get the
 * stale value meanwhile, or wait for the first load: one request per TTL, however many readers.
 * @template T
 * @param {string} key
 * @param {number} ttlMs
 * @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
async function ${JS_HELPER_NAME}(key, ttlMs, load) {
  let entry = shardlensCache.get(key);
  if (!entry) shardlensCache.set(key, (entry = { loaded: false, expires: 0 }));
  if (entry.loaded && Date.now() < entry.expires) return structuredClone(/** @type {T} */ (entry.value));
  const e = entry;
  if (!e.refreshing) {
    e.refreshing = load().then(
      (value) => {
        Object.assign(e, { value, loaded: true, expires: Date.now() + ttlMs, refreshing: undefined });
        return value;
      },
      (error) => {
        e.refreshing = undefined;
        throw error;
      },
    );
    // A failed refresh behind a stale value is tried again by the next caller. (A block
    // body: \`() => undefined\` is an implicit any with noImplicitAny and no strictNullChecks.)
    e.refreshing.catch(() => {});
  }
  if (e.loaded) return structuredClone(/** @type {T} */ (e.value));
  return structuredClone(/** @type {T} */ (await e.refreshing));
}`;
}

/** Python, for threads (Lambda, Flask, Django): a lock guards the entries, an Event the one load. */
export function pythonCacheHelper(): string {
  return `_shardlens_cache = {}
_shardlens_cache_lock = threading.Lock()


def ${PY_HELPER_NAME}(key, ttl_seconds, load):
    """Serves a read from memory for ttl_seconds. One caller reloads an expired entry; the others
    get the stale value meanwhile, or wait for the first load: one request per TTL, however many
    readers. Each caller gets its own copy."""
    with _shardlens_cache_lock:
        entry = _shardlens_cache.setdefault(
            key, {"loaded": False, "value": None, "expires": 0.0, "loading": None}
        )
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
        # The one load failed: this caller reads for itself, as it did without the cache.
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
    return copy.deepcopy(value)`;
}

/** The modules the Python helper needs. */
export const PY_HELPER_IMPORTS = ['copy', 'threading', 'time'];
