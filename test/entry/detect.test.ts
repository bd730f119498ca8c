/**
 * The entry points each front-end reads in code, by the shapes frameworks are written in,
 * and the schedule arithmetic.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { cronPerHour, parseRate, ratePerHourOf } from '../../server/src/engine/frontends/schedule-rates';
import { jsFileReach } from '../../server/src/engine/frontends/js/entry-points';
import type { SourceLanguage } from '../../server/src/engine/model';
import type { FileReach } from '../../server/src/engine/model/entry-point';
import { initParsers, parse } from '../../server/src/engine/syntax/parser';
import { pythonFileReach } from '../../server/src/engine/frontends/python/entry-points';

async function read(file: string, text: string, language: SourceLanguage = 'typescript'): Promise<FileReach> {
  await initParsers();
  const tree = parse(language, text);
  try {
    return language === 'python' ? pythonFileReach(tree, file, false) : jsFileReach(tree, file, false, false);
  } finally {
    tree.delete();
  }
}

const names = (r: FileReach) => r.entries.map((e) => `${e.entry.kind} ${e.entry.name}`);
const root = (r: FileReach, name: string) =>
  r.functions.find((f) => f.name === r.entries.find((e) => e.entry.name === name)?.root);

test('Koa and Hono routes, inline or named, and a handler named by a controller member', async () => {
  const r = await read(
    'src/server.ts',
    [
      'import Koa from "koa";',
      'import Router from "@koa/router";',
      'import { Hono } from "hono";',
      'const app = new Koa();',
      'const router = new Router();',
      'const api = new Hono();',
      'router.get("/boards/:id", async (ctx) => { ctx.body = await boards.read(ctx.params.id); });',
      'api.post("/scores", submitScore);',
      'router.delete("/scores/:id", requireAdmin, controller.remove);',
    ].join('\n'),
  );
  assert.deepEqual(names(r), ['api GET /boards/:id', 'api POST /scores', 'api DELETE /scores/:id']);
  assert.ok(r.declaresApp);
  assert.deepEqual(
    root(r, 'DELETE /scores/:id')?.calls.map((c) => c.name),
    ['requireAdmin', 'remove'],
  );
  assert.ok(root(r, 'GET /boards/:id')?.calls.some((c) => c.name === 'read' && c.member));
});

test('NestJS: the controller prefix joins each route; @Cron is a schedule', async () => {
  const r = await read(
    'src/votes.controller.ts',
    [
      '@Controller("votes")',
      'export class VotesController {',
      '  constructor(private readonly votes: VotesService) {}',
      '  @Post()',
      '  cast(@Body() body: CastVote) { return this.votes.cast(body); }',
      '  @Get(":id/summary")',
      '  summary(@Param("id") id: string) { return this.votes.summary(id); }',
      '  @Cron("0 */15 * * * *")',
      '  rollUp() { return this.votes.rollUp(); }',
      '}',
    ].join('\n'),
  );
  assert.deepEqual(names(r), ['api POST /votes', 'api GET /votes/:id/summary', 'schedule cron(0 */15 * * * *)']);
  assert.equal(root(r, 'POST /votes')?.name, 'cast');
});

test('Next.js: route handlers under app/ and API routes under pages/api', async () => {
  const route = await read(
    'web/app/votes/[id]/route.ts',
    'export async function GET(req: Request) { return Response.json(await load()); }\nexport const POST = async (req: Request) => save(await req.json());\n',
  );
  assert.deepEqual(names(route), ['api GET /votes/[id]', 'api POST /votes/[id]']);
  const page = await read(
    'web/pages/api/votes.ts',
    'export default async function handler(req, res) { res.json(await tally()); }\n',
  );
  assert.deepEqual(names(page), ['api ANY /api/votes']);
});

test('Next.js App Router: pages and layouts by their segment config, server actions by the directive', async () => {
  const home = await read(
    'web/src/app/(marketing)/scores/page.tsx',
    'import { auth } from "@/auth";\nexport default async function Scores() {\n  const session = await auth();\n  return <Board rows={await topScores()} />;\n}\n',
  );
  assert.deepEqual(names(home), ['api GET /scores'], 'the route group is no part of the path');
  assert.equal(home.entries[0].entry.trigger, 'Next.js page GET /scores');
  const layout = await read('app/layout.tsx', 'export default function Root({ children }) { return children; }\n');
  assert.deepEqual(names(layout), ['api GET /']);

  const isr = await read(
    'app/blog/page.tsx',
    'export const revalidate = 900;\nexport default async function Blog() { return <List posts={await posts()} />; }\n',
  );
  assert.deepEqual(names(isr), ['schedule GET /blog']);
  assert.equal(isr.entries[0].entry.ratePerHour, 4);
  const built = await read(
    'app/about/page.tsx',
    "export const dynamic = 'force-static';\nexport default async function About() { return <Team people={await team()} />; }\n",
  );
  assert.deepEqual(names(built), ['script GET /about'], 'rendered at build time: run once');
  const fresh = await read(
    'app/live/page.tsx',
    'export const revalidate = 0;\nexport default async function Live() { return <Feed items={await feed()} />; }\n',
  );
  assert.deepEqual(names(fresh), ['api GET /live'], 'revalidate 0 renders on every request');
  // A default export outside app/ is no page.
  assert.deepEqual(names(await read('src/components/page.tsx', 'export default function P() { return null; }\n')), []);

  const actions = await read(
    'app/actions.ts',
    "// Form actions.\n'use server';\n\nexport async function vote(form: FormData) { await saveVote(form); }\nexport const undo = async (id: string) => removeVote(id);\nasync function helper() {}\n",
  );
  assert.deepEqual(names(actions), ['api POST (server action vote)', 'api POST (server action undo)']);
  const inline = await read(
    'app/polls/[id]/page.tsx',
    'export default function Poll() {\n  async function cast(form: FormData) {\n    "use server";\n    await saveVote(form);\n  }\n  return <form action={cast} />;\n}\n',
  );
  assert.deepEqual(names(inline), ['api GET /polls/[id]', 'api POST (server action cast)']);
  // A string that is not the first statement is no directive.
  const later = await read('app/other.ts', 'export async function f() {\n  log();\n  "use server";\n}\n');
  assert.deepEqual(names(later), []);
});

test('Lambda handlers by signature: unknown without a type, the event type when it names one', async () => {
  const plain = await read(
    'src/h.js',
    'exports.handler = async (event, context) => { await save(event); };\n',
    'javascript',
  );
  assert.deepEqual(names(plain), ['unknown handler']);
  const stream = await read(
    'src/s.ts',
    'import type { DynamoDBStreamEvent } from "aws-lambda";\nexport const onChange = async (event: DynamoDBStreamEvent) => { for (const r of event.Records) await apply(r); };\n',
  );
  assert.deepEqual(names(stream), ['stream onChange']);
  // Named a handler, it is one whatever it takes (a cron handler often takes nothing).
  assert.deepEqual(names(await read('src/job.ts', 'export const handler = async () => { await run(); };\n')), [
    'unknown handler',
  ]);
  // A function that takes no event is no handler.
  assert.deepEqual(
    names(await read('src/lib.ts', 'export async function save(item: Item) { await put(item); }\n')),
    [],
  );
});

test('a shebang makes the file a script; its top-level calls are what it runs', async () => {
  const r = await read(
    'bin/backfill.js',
    '#!/usr/bin/env node\nconst { backfill } = require("../src/backfill");\nbackfill();\n',
    'javascript',
  );
  assert.deepEqual(names(r), ['script backfill.js']);
});

test('Flask blueprints with url_prefix, route methods, and Powertools resolvers', async () => {
  const r = await read(
    'votes/views.py',
    [
      'from flask import Blueprint',
      'bp = Blueprint("votes", __name__, url_prefix="/votes")',
      '',
      '@bp.route("/", methods=["POST"])',
      'def cast():',
      '    return save_vote()',
      '',
      '@bp.route("/<poll_id>")',
      'def show(poll_id):',
      '    return load(poll_id)',
    ].join('\n'),
    'python',
  );
  assert.deepEqual(names(r), ['api POST /votes/', 'api GET /votes/<poll_id>']);
  const pt = await read(
    'app.py',
    'from aws_lambda_powertools.event_handler import APIGatewayRestResolver\napp = APIGatewayRestResolver()\n\n@app.get("/todos")\ndef todos():\n    return list_todos()\n\ndef lambda_handler(event, context):\n    return app.resolve(event, context)\n',
    'python',
  );
  assert.deepEqual(names(pt), ['api GET /todos', 'unknown lambda_handler']);
});

test('Powertools AppSync resolvers: each decorated field is an API entry point named by its type and field', async () => {
  const r = await read(
    'badges/app.py',
    [
      'from aws_lambda_powertools.event_handler import AppSyncResolver',
      'app = AppSyncResolver()',
      '',
      '@app.resolver(type_name="Query", field_name="featuredBadges")',
      'def featured_badges():',
      '    return load_featured()',
      '',
      '@app.resolver(field_name="awardBadge")',
      'def award_badge(memberId: str, badge: str):',
      '    return save_award(memberId, badge)',
      '',
      'def lambda_handler(event, context):',
      '    return app.resolve(event, context)',
      '',
    ].join('\n'),
    'python',
  );
  assert.deepEqual(names(r), ['api Query featuredBadges', 'api GraphQL awardBadge', 'unknown lambda_handler']);
  assert.deepEqual(root(r, 'Query featuredBadges')?.calls, [{ name: 'load_featured', member: false, inLoop: false }]);
});

test('Django urlpatterns lead to the views they name', async () => {
  const r = await read(
    'polls/urls.py',
    'from django.urls import path\nfrom . import views\n\nurlpatterns = [\n    path("votes/", views.cast_vote),\n    path("results/<int:id>/", views.results, name="results"),\n]\n',
    'python',
  );
  assert.deepEqual(names(r), ['api ANY /votes/', 'api ANY /results/<int:id>/']);
  assert.deepEqual(root(r, 'ANY /votes/')?.calls, [{ name: 'cast_vote', member: true, inLoop: false }]);
});

test('Chalice schedules: Rate, Cron and a rate string, with their hourly counts', async () => {
  const r = await read(
    'app.py',
    [
      'from chalice import Chalice, Rate, Cron',
      'app = Chalice(app_name="x")',
      '@app.schedule(Rate(5, unit=Rate.MINUTES))',
      'def every_five(event): pass',
      '@app.schedule(Rate(1, unit=Rate.HOURS))',
      'def hourly(event): pass',
      '@app.schedule(Cron("*/10", "*", "*", "*", "?", "*"))',
      'def ten(event): pass',
      '@app.schedule("rate(2 days)")',
      'def rare(event): pass',
      '@app.on_dynamodb_record(stream_arn=STREAM)',
      'def changes(event): pass',
    ].join('\n'),
    'python',
  );
  const rates = r.entries.map((e) => [e.entry.trigger, e.entry.ratePerHour]);
  assert.deepEqual(rates.slice(0, 4), [
    ['rate(5 minutes)', 12],
    ['rate(1 hour)', 1],
    ['cron(*/10 * * * ? *)', 6],
    ['rate(2 days)', 1 / 48],
  ]);
  assert.equal(r.entries[4].entry.kind, 'stream');
});

test('schedule arithmetic', () => {
  assert.equal(ratePerHourOf(30, 'minutes'), 2);
  assert.equal(ratePerHourOf(1, 'day'), 1 / 24);
  assert.equal(ratePerHourOf(3, 'fortnights'), null);
  assert.equal(cronPerHour(['0', '3', '*', '*', '?', '*']), 1);
  assert.equal(cronPerHour(['0,30', '*', '*', '*', '?', '*']), 2);
  assert.equal(cronPerHour(['L', '*', '*', '*', '?', '*']), null);
  assert.deepEqual(parseRate('rate(30 minutes)'), { trigger: 'rate(30 minutes)', ratePerHour: 2 });
  assert.equal(parseRate('every day'), null);
});
