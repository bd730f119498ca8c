/**
 * The engine's layer rules, checked by `npm run lint` (dependency-cruiser). Type-only
 * imports count: a type cycle still ties modules together, so the model types live in
 * `server/src/engine/model/`, which every stage imports and which imports no stage.
 * docs/engine.md shows the stages; test/unit/layers.test.ts plants violations.
 */
const ENGINE = '^server/src/engine/';
const FEATURES = '^server/src/(cli|lsp|heat|features|config)/';
/** The front-ends' stage: each front-end a folder of its own, and what they share beside them. */
const FRONTENDS = `${ENGINE}frontends/`;
/** The language front-ends, each implementing FrontEnd (model/frontend.ts) and listed in frontends/registry.ts. */
const LANGUAGE_FRONT_END_DIRS = 'js|python';
/** The DynamoDB libraries' front-ends (LibraryFrontEnd), under frontends/: each reads a language through the FrontEnd it is given. */
const LIBRARY_FRONT_END_DIRS = 'electrodb|toolbox|pynamodb|dynamoose|onetable|typedorm';
/** Every front-end folder: the language front-ends and the infrastructure-code readers. */
const FRONT_END_DIRS = `${LANGUAGE_FRONT_END_DIRS}|infra`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included.',
      severity: 'error',
      from: { path: '^server/src/' },
      to: { circular: true },
    },
    {
      name: 'model-imports-no-stage',
      comment: 'The model is plain data: it imports nothing else of the engine or the features.',
      severity: 'error',
      from: { path: `${ENGINE}model/` },
      to: { path: '^server/src/', pathNot: `${ENGINE}model/` },
    },
    {
      name: 'engine-never-imports-features',
      comment: 'The engine knows nothing of the CLI, the language server, live heat or fixes.',
      severity: 'error',
      from: { path: ENGINE },
      to: { path: FEATURES },
    },
    {
      name: 'features-through-engine-entry',
      comment:
        'The CLI, the language server, live heat, the fixes and the project config reach the engine through server/src/engine/index.ts only.',
      severity: 'error',
      from: { path: FEATURES },
      to: { path: ENGINE, pathNot: `${ENGINE}index\\.ts$` },
    },
    {
      name: 'frontends-never-import-each-other',
      comment:
        'One front-end never reads another one’s modules: what they share lies beside them in frontends/ (evaluation.ts, wrappers/) or below them (the model, syntax/).',
      severity: 'error',
      from: { path: `${FRONTENDS}(${FRONT_END_DIRS})/` },
      to: { path: `${FRONTENDS}(${FRONT_END_DIRS})/`, pathNot: `${FRONTENDS}$1/` },
    },
    {
      name: 'frontends-through-registry',
      comment:
        'The shared stages reach a language’s front-end only through frontends/registry.ts (frontEndFor) and the FrontEnd interface in model/frontend.ts, never its modules.',
      severity: 'error',
      from: { path: ENGINE, pathNot: `${FRONTENDS}((${LANGUAGE_FRONT_END_DIRS})/|registry\\.ts$)` },
      to: { path: `${FRONTENDS}(${LANGUAGE_FRONT_END_DIRS})/` },
    },
    {
      name: 'libraries-never-import-front-ends',
      comment:
        'A DynamoDB library’s front-end reads the language through the FrontEnd the registry gives it, never a front-end’s modules, and never another library’s.',
      severity: 'error',
      from: { path: `${FRONTENDS}(${LIBRARY_FRONT_END_DIRS})/` },
      to: { path: `${FRONTENDS}(${FRONT_END_DIRS}|${LIBRARY_FRONT_END_DIRS})/`, pathNot: `${FRONTENDS}$1/` },
    },
    {
      name: 'rules-below-workspace',
      comment: 'Rules read the model and keys/; the workspace groups accesses for them, never the reverse.',
      severity: 'error',
      from: { path: `${ENGINE}rules/` },
      to: { path: `${ENGINE}(workspace/|frontends/(js|python|wrappers)/)` },
    },
    {
      name: 'rules-read-no-disk',
      comment:
        'Rules are pure functions of the model: no file system, no child processes. What they need of the disk (a file’s role, its project) the analysis works out in file-roles/ and hands them as data.',
      severity: 'error',
      from: { path: `${ENGINE}rules/` },
      to: { path: ['^(node:)?(fs|child_process)(/promises)?$', `${ENGINE}file-roles/(index|project)\\.ts$`] },
    },
    {
      name: 'keys-below-rules',
      comment: 'Logical keys and the matcher read the model only; rules and the workspace build on them.',
      severity: 'error',
      from: { path: `${ENGINE}keys/` },
      to: { path: `${ENGINE}(rules/|workspace/|frontends/(js|python|wrappers)/)` },
    },
    {
      name: 'server-loads-aws-heat-lazily',
      comment:
        'The language server calls AWS only through lsp/load-heat.ts, which loads heat/aws.ts as a bundle of its own at the first use: a value import of the SDK, or of the heat modules that call it, would put the SDK in every start. Types are free.',
      severity: 'error',
      from: { path: '^server/src/lsp/', pathNot: '^server/src/lsp/load-heat\\.ts$' },
      to: {
        path: [
          '^server/src/heat/(index|aws|clients|fetch|service|request|insights|list-tables)\\.ts$',
          '(^|/)@aws-sdk/',
        ],
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
