import type { LibraryName } from './index';

/**
 * The libraries whose fixes are written in the library's own style (`features/fixes/libraries/`):
 * a finding on one of their accesses keeps the rule's fix descriptors, which those providers
 * read. Another library's access carries none: the SDK fixes edit an SDK request, and a
 * library's key is written in its schema, not at the call.
 */
export const LIBRARIES_WITH_FIXES: ReadonlySet<LibraryName> = new Set<LibraryName>([
  'dynamoose',
  'pynamodb',
  'electrodb',
  'dynamodb-onetable',
  'dynamodb-toolbox',
  'typedorm',
  // Not a DynamoDB library: a Kafka record's key is rewritten at the producer call (SL020).
  'kafka',
  // Not a DynamoDB library: a tenant's route is given a map of dedicated tenants (SL021).
  'tenant-route',
]);

/**
 * Whether the cache fix wraps a library's read where it stands (`features/fixes/cache-library.ts`):
 * its call resolves to plain data, which the cache's copy keeps whole. ElectroDB's `.go()` gives
 * `{ data, cursor }`, dynamodb-toolbox v1's `.send()` `{ Item }` / `{ Items }`, OneTable's `get`
 * the item. Not: a toolbox v0 call (a query's response may hold a `next()` function), OneTable's
 * `find` (its array carries the next page's key), the other libraries' documents, entity
 * classes and lazy iterators. A read-hot read that is not carries no cache descriptor.
 */
export function cacheableLibraryRead(library: LibraryName, operation: string, callee: string): boolean {
  if (library === 'electrodb') return true;
  if (library === 'dynamodb-toolbox') return callee.endsWith('.send');
  if (library === 'dynamodb-onetable') return operation === 'GetItem';
  return false;
}

/**
 * The DynamoDB libraries whose objects carry the schema their calls are read by: the
 * classes an evaluator records when constructed (`Value.made`), by package. A library
 * front-end (`frontends/<library>/`) reads the recorded schema; the language evaluator
 * knows no library beyond this list.
 */
export const RECORDED_CONSTRUCTORS: Readonly<Record<string, readonly string[]>> = {
  electrodb: ['Entity', 'Service'],
  'dynamodb-toolbox': ['Entity', 'Table'],
  dynamoose: ['Schema', 'Table'],
  'dynamodb-onetable': ['Table'],
  '@typedorm/common': ['Table'],
  // PynamoDB: a model or index is a class declared on one of these (`class Thread(Model)`),
  // its attributes constructions (`UnicodeAttribute(hash_key=True)`).
  'pynamodb.models': ['Model'],
  'pynamodb.indexes': ['GlobalSecondaryIndex', 'LocalSecondaryIndex'],
  'pynamodb.attributes': [
    'UnicodeAttribute',
    'NumberAttribute',
    'BinaryAttribute',
    'UTCDateTimeAttribute',
    'BooleanAttribute',
    'VersionAttribute',
    'TTLAttribute',
    'JSONAttribute',
    'MapAttribute',
    'ListAttribute',
    'UnicodeSetAttribute',
    'NumberSetAttribute',
    'BinarySetAttribute',
    'DiscriminatorAttribute',
  ],
};

const PYTHON_PACKAGES = Object.keys(RECORDED_CONSTRUCTORS).filter((m) => !m.includes('/') && m.includes('.'));
/**
 * What a Python module declaring models writes even when it imports the library's classes
 * through the project's own base module (`from app.models.base import BaseModel,
 * UnicodeAttribute`): an attribute class called (`UnicodeAttribute(hash_key=True)`, a
 * project's `KeyAttribute(...)`), an index class derived from, or what the `class Meta` of a model
 * that inherits every attribute from a base model writes: its `table_name`, or a `Meta` derived
 * from the base's (`class Meta(StockBase.Meta)`). A Django model's `class Meta` writes neither.
 */
const PYTHON_MODEL_WORDS =
  /\b[A-Z]\w*Attribute\s*\(|\((?:\w+\.)?(?:Global|Local)SecondaryIndex\b|^[ \t]+(?:table_name\s*=|class Meta\(\w+\.Meta\))/m;

/** Whether a Python module may declare a recorded library's models: it names the package, or writes what models do. */
export function mayDeclarePythonModels(text: string): boolean {
  return PYTHON_PACKAGES.some((m) => text.includes(m.split('.')[0])) || PYTHON_MODEL_WORDS.test(text);
}

/**
 * Functions whose result a library builds on with chained calls, recorded with the
 * chain (`Construction.calls`): dynamodb-toolbox v1 declares attributes as
 * `string().key().savedAs("PK").default("X")` and schemas as `item({ ... })`.
 */
export const RECORDED_BUILDERS: Readonly<Record<string, readonly string[]>> = {
  // TypeDORM's connection and managers: `createConnection({ table, entities })`, `getEntityManager()`.
  '@typedorm/core': [
    'createConnection',
    'getConnection',
    'getEntityManager',
    'getTransactionManager',
    'getBatchManager',
  ],
  // dynamoose declares a model by a call (`dynamoose.model("Cat", schema)`); `new Cat({...})`
  // is recorded as a call chained on it.
  dynamoose: ['model'],
  'dynamodb-toolbox': [
    'item',
    'schema',
    'map',
    'string',
    'number',
    'boolean',
    'binary',
    'list',
    'set',
    'record',
    'anyOf',
    'any',
    'nul',
    'prefix',
    'suffix',
    '$add',
    '$subtract',
    '$set',
    '$get',
  ],
};

/**
 * Class decorators of a library that make the class a model, recorded on the class
 * (`Construction.declared`): TypeDORM's `@Entity({ name, primaryKey, indexes }) class User`,
 * with its fields' decorators (`@Attribute()`, `@AutoGenerateAttribute({ strategy })`).
 */
export const RECORDED_DECORATORS: Readonly<Record<string, readonly string[]>> = {
  '@typedorm/common': ['Entity'],
};

/**
 * Methods of a recorded construction whose result carries the schema on, recorded as a
 * call of the construction (`Construction.calls`): OneTable's `table.getModel('User')`
 * is the table with the model it names.
 */
export const RECORDED_METHODS: Readonly<Record<string, readonly string[]>> = {
  'dynamodb-onetable': ['getModel'],
};

/**
 * Properties of a recorded construction that carry it on, recorded as a call of it:
 * TypeDORM's `connection.entityManager` is the connection's manager, on its table.
 */
export const RECORDED_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  '@typedorm/core': ['entityManager', 'transactionManager', 'batchManager', 'scanManager'],
};

const METHOD_NAMES = new Set(Object.values(RECORDED_METHODS).flat());

/** Whether a method name is one of `RECORDED_METHODS` (checked before its receiver is evaluated). */
export function isRecordedMethod(name: string): boolean {
  return METHOD_NAMES.has(name);
}

/** The package an import names (`dynamodb-toolbox/schema/string` is `dynamodb-toolbox`). */
export function packageOf(source: string): string {
  const parts = source.split('/');
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const NEW_MODEL = new RegExp(
  `\\bnew\\s+(${[...new Set(Object.values(RECORDED_CONSTRUCTORS).flat())].join('|')})\\s*\\(`,
);

const FACTORY_CALL = new RegExp(
  `^\\s*(?:await\\s+)?[\\w$.]*(?:${[...new Set(Object.values(RECORDED_CONSTRUCTORS).flat())].join('|')}|\\b(?:make|create|build|define|init)[A-Z][\\w$]*)\\s*\\(`,
);

/**
 * Whether an expression calls a function named for the library model it makes
 * (`createUserEntity(StoreTable)`, `makeOrdersTable(...)`) or named as a factory
 * (`makeUser(table)`, `buildTable(process.env.TABLE)`): a module's constant holding one is
 * what the factory returns, read through its module's summary. Other calls are not followed
 * into their modules, so a module's constants cost no summary of every module they call into.
 */
export function callsModelFactory(expression: string): boolean {
  return FACTORY_CALL.test(expression.slice(0, 200));
}

/** Whether a module's text declares a library's models: it names the package and constructs one of its classes. */
export function declaresLibraryModels(text: string): boolean {
  return Object.keys(RECORDED_CONSTRUCTORS).some((p) => text.includes(p)) && NEW_MODEL.test(text);
}
