/**
 * An open document's reach read again only where its edits were (incremental/reach-cache.ts)
 * is the reach a whole reading of the same text gives, for each kind of place an edit falls
 * in: a type declaration, a comment, a function's signature, a closing brace, a decorator,
 * an import, an `export`, the gap between two functions, a `case`, a route object. Then
 * batches of keystrokes in far-apart places before one reading, with extractions between
 * them, as the language server applies keystrokes faster than its debounced analysis.
 * And what is read again: nothing for an edit in a type or a comment, the function and its
 * statement for one in a signature.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AnalyzedDocument } from '../../server/src/engine/incremental/document';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { frontEndFor } from '../../server/src/engine/frontends/registry';
import { countWords } from '../../server/src/engine/frontends/word-counts';
import type { SourceLanguage } from '../../server/src/engine/model';
import { seededRandom } from './seeded-random';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'reach-edits');

/** A place in a fixture: the text that finds it, and how far into that text the edit goes. */
type Place = [kind: string, needle: string, offset: number];

const FILES: Array<{ file: string; language: SourceLanguage; places: Place[] }> = [
  {
    file: 'orders.ts',
    language: 'typescript',
    places: [
      ['type member', '  quantity: number;', 4],
      ['type alias', "'paid' | 'shipped'", 3],
      ['comment', '// Orders are kept', 10],
      ['doc comment', '/** Every order', 5],
      ['signature', 'customerId: string, limit = 50', 3],
      ['arrow signature', '(event: SQSEvent)', 3],
      ['closing brace of a class', '\n}\n\nfunction toLines', 2],
      ['closing brace of a method', '  }\n\n  async markPaid', 3],
      ['decorator', "@Get(':customerId')", 2],
      ['import', 'QueryCommand, UpdateCommand', 5],
      ['export', 'export const handler', 0],
      ['export keyword', 'export const handler', 3],
      ['between functions', '\n\nfunction toLines', 1],
      ['case', 'case 0:', 5],
      ['body', 'const days = ', 6],
      ['controller mark', "@Controller('orders')", 3],
      ['schedule mark', "@Cron('0", 2],
    ],
  },
  {
    file: 'sessions.js',
    language: 'javascript',
    places: [
      ['comment', 'Sessions live under', 3],
      ['require', '{ audit }', 3],
      ['route handler', "audit('read'", 2],
      ['route', 'router.delete(', 8],
      ['signature', '(req, res, next)', 5],
      ['exported key', 'sweep: async', 2],
      ['route object', "method: 'GET'", 3],
      ['script guard', 'require.main', 9],
      ['between functions', '\n\nfunction requireAdmin', 1],
      ['app mark', 'express()', 3],
      ['route object mark', 'handler: () =>', 4],
    ],
  },
  {
    file: 'tickets.py',
    language: 'python',
    places: [
      ['docstring', 'Ticket views', 3],
      ['comment', '# One partition', 4],
      ['decorator', '@tickets.route(', 5],
      ['decorator', '@tickets.post("/")', 10],
      ['signature', '(ticket_id: str)', 4],
      ['class docstring', 'Escalated tickets', 3],
      ['method signature', 'limit=25', 2],
      ['body', 'resp = table.query', 3],
      ['nested route', 'path("create/"', 3],
      ['main guard', 'print(handler', 2],
      ['between functions', '\n\n\nclass Escalations', 1],
      ['import', 'include, path', 3],
      ['router mark', 'Blueprint("tickets"', 4],
      ['app mark', 'urlpatterns = [', 4],
      ['main guard mark', '"__main__"', 4],
    ],
  },
];

const CHARACTERS = ['x', ' ', '(', ')', '{', '}', '\n', "'", '"', ':', '@', '#', '/', '*', '`'];

function source(file: string): string {
  return fs.readFileSync(path.join(FIXTURES, file), 'utf8');
}

function at(text: string, [kind, needle, offset]: Place): number {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${kind}: ${JSON.stringify(needle)} not found`);
  return i + offset;
}

/** The document's reach against a whole reading of its current tree. */
function same(doc: AnalyzedDocument, what: string): void {
  assert.deepEqual(doc.analysis.reach, doc.analyzeWithoutReuse().reach, `${doc.file}: ${what}: reach kept differs`);
}

test('a character typed and deleted again at each kind of place keeps the reach of a whole reading', async () => {
  await initParsers();
  for (const { file, language, places } of FILES) {
    const text = source(file);
    const doc = new AnalyzedDocument(file, language, text);
    for (const place of places) {
      const i = at(text, place);
      for (const c of CHARACTERS) {
        doc.applyEdits([{ start: i, end: i, text: c }]);
        same(doc, `${JSON.stringify(c)} typed in the ${place[0]}`);
        doc.applyEdits([{ start: i, end: i + 1, text: '' }]);
        same(doc, `${JSON.stringify(c)} deleted again in the ${place[0]}`);
      }
      // A character of the text deleted, then written again.
      const gone = text[i];
      doc.applyEdits([{ start: i, end: i + 1, text: '' }]);
      same(doc, `${JSON.stringify(gone)} deleted in the ${place[0]}`);
      doc.applyEdits([{ start: i, end: i, text: gone }]);
      same(doc, `${JSON.stringify(gone)} written again in the ${place[0]}`);
    }
    assert.equal(doc.content, text);
  }
});

test('keystrokes in far-apart places before one reading keep the reach of a whole reading', async () => {
  await initParsers();
  let seed = 11;
  for (const { file, language, places } of FILES) {
    const text = source(file);
    const doc = new AnalyzedDocument(file, language, text);
    const next = seededRandom(seed++);
    for (let batch = 0; batch < 40; batch++) {
      // Two to four places, typed into from the last one back, so the earlier offsets hold.
      const chosen = [
        ...new Set(
          Array.from({ length: 2 + Math.floor(next() * 3) }, () => places[Math.floor(next() * places.length)]),
        ),
      ];
      const offsets = [...new Set(chosen.map((p) => at(text, p)))].sort((a, b) => b - a);
      const typed = offsets.map(() => CHARACTERS[Math.floor(next() * CHARACTERS.length)]);
      const what = `batch ${batch}: ${JSON.stringify(typed)} at ${offsets}`;
      offsets.forEach((o, k) => {
        doc.applyEdits([{ start: o, end: o, text: typed[k] }], false);
        // A hover between keystrokes reparses and extracts, and reads no reach.
        if (next() < 0.5) doc.extract();
      });
      doc.refresh();
      same(doc, `${what}, typed`);
      // Deleted again, from the last one back; sometimes read in between.
      offsets.forEach((o, k) => {
        const shifted = o + offsets.slice(k + 1).length;
        doc.applyEdits([{ start: shifted, end: shifted + 1, text: '' }], next() < 0.3);
        if (next() < 0.5) doc.extract();
      });
      doc.refresh();
      same(doc, `${what}, deleted again`);
      assert.equal(doc.content, text);
    }
  }
});

/** The pieces read again for one keystroke at a place, and whether the whole file was read. */
function readAgain(file: string, language: SourceLanguage, place: Place, c = 'x') {
  const text = source(file);
  const doc = new AnalyzedDocument(file, language, text);
  const before = { ...doc.reach.reads };
  const i = at(text, place);
  doc.applyEdits([{ start: i, end: i, text: c }]);
  same(doc, `${c} typed in the ${place[0]}`);
  return { pieces: doc.reach.reads.pieces - before.pieces, whole: doc.reach.reads.whole - before.whole };
}

test('an edit in a type alias, a comment or a docstring reads nothing again; in a class body, the class; in a signature, the function, not its body', async () => {
  await initParsers();
  const [ts, js, py] = FILES;
  const nothing = (f: (typeof FILES)[number], kind: string) => {
    for (const place of f.places.filter((p) => p[0] === kind))
      assert.deepEqual(readAgain(f.file, f.language, place), { pieces: 0, whole: 0 }, `${f.file}: ${kind}`);
  };
  for (const kind of ['type alias', 'comment']) nothing(ts, kind);
  nothing(js, 'comment');
  for (const kind of ['docstring', 'comment']) nothing(py, kind);
  const one = (f: (typeof FILES)[number], kind: string) =>
    readAgain(
      f.file,
      f.language,
      f.places.find((p) => p[0] === kind)!,
    );
  // Inside a class or an interface: the declaration itself (its name and what it extends, read
  // for calls through base types), not its methods.
  assert.deepEqual(one(ts, 'type member'), { pieces: 1, whole: 0 });
  assert.deepEqual(one(py, 'class docstring'), { pieces: 1, whole: 0 });
  // The blank lines before `class Escalations` are in its statement's scope (a decorator may stand there).
  assert.deepEqual(one(py, 'between functions'), { pieces: 1, whole: 0 });
  // A comment in a class body: the class, which a NestJS file reads whole for its decorators,
  // and the call of the decorator on it; not the class's methods.
  assert.deepEqual(one(ts, 'doc comment'), { pieces: 2, whole: 0 });
  // A signature: the method, the class and its decorator's call; not the two calls and the loop in its body.
  assert.deepEqual(one(ts, 'signature'), { pieces: 3, whole: 0 });
  // `function requireAdmin(req, res, next)`: the function alone, not the calls in its body.
  assert.deepEqual(one(js, 'signature'), { pieces: 1, whole: 0 });
  // `def show(ticket_id: str)`: the function and the decorator's call, which share a statement.
  assert.deepEqual(one(py, 'signature'), { pieces: 2, whole: 0 });
  // An arrow handler's parameters: the arrow and the `const handler =` declaring it (a
  // declaration's binding is read from its value); not `new` and `from` in its body.
  assert.deepEqual(one(ts, 'arrow signature'), { pieces: 2, whole: 0 });
  // A mark the whole file is read by (`method:` of a route object) read the whole file again.
  assert.deepEqual(one(js, 'route object'), { pieces: 0, whole: 1 });
});

test('two keystrokes in one word before one reading count the word once', async () => {
  await initParsers();
  // A name written in one more place than the edited one: still `named` after the edit.
  for (const [file, language, needle] of [
    ['sessions.js', 'javascript', 'requireAdmin, removeSession'],
    ['tickets.py', 'python', '{"pk": today_key(), "sk": ticket_id}'],
  ] as const) {
    const text = source(file);
    const doc = new AnalyzedDocument(file, language, text);
    const word = text.indexOf(needle) + (file.endsWith('.js') ? 14 : 7);
    doc.applyEdits([{ start: word + 4, end: word + 4, text: 'x' }], false);
    doc.applyEdits([{ start: word + 2, end: word + 2, text: 'x' }], false);
    doc.refresh();
    same(doc, `two keystrokes in ${needle}`);
  }
});

test('a mark looked for only when a word it needs is written is found as a search of the whole text finds it', async () => {
  await initParsers();
  const marks: Array<[SourceLanguage, string]> = [
    ['typescript', "class Jobs {\n  @Cron('0 * * * * *')\n  tick() {}\n}"],
    ['typescript', 'class Jobs {\n  @Interval(5000)\n  tick() {}\n}'],
    ['typescript', "@Controller('votes')\nexport class Votes {}"],
    ['typescript', 'const app = express();'],
    ['typescript', 'const app = fastify({ logger: true });'],
    ['typescript', 'const app = Fastify();'],
    ['typescript', 'const app = new Koa();'],
    ['typescript', 'const app = new Hono();'],
    ['typescript', 'const router = new Router();'],
    ['typescript', 'const router = new KoaRouter();'],
    ['typescript', 'const app = await NestFactory.create(AppModule);'],
    ['javascript', "module.exports = [{ method: 'GET', path: '/x', handler: list }];"],
    ['javascript', 'if (require.main === module) main();'],
    ['python', 'app = Flask(__name__)'],
    ['python', 'app = FastAPI()'],
    ['python', 'app = Chalice(app_name="votes")'],
    ['python', 'router = APIRouter(prefix="/votes")'],
    ['python', 'bp = Blueprint("votes", __name__, url_prefix="/votes")'],
    ['python', 'app = APIGatewayRestResolver()'],
    ['python', 'app = APIGatewayHttpResolver()'],
    ['python', 'app = ALBResolver()'],
    ['python', 'app = LambdaFunctionUrlResolver()'],
    ['python', 'urlpatterns = [path("votes/", views.list)]'],
  ];
  for (const [language, text] of marks) {
    const file = language === 'python' ? 'app/votes.py' : 'src/votes.ts';
    const tree = parse(language, text, 5000);
    const frontEnd = frontEndFor(language);
    const plain = frontEnd.reachReading(tree, file, { test: false, bin: false });
    const gated = frontEnd.reachReading(tree, file, { test: false, bin: false }, countWords(text));
    const shown = (r: typeof plain) => ({ mode: r.mode, app: r.declaresApp, entries: r.entries, types: [...r.types] });
    assert.deepEqual(shown(gated), shown(plain), text);
    tree.delete();
  }
});
