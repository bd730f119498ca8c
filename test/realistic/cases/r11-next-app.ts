import type { Case } from '../case';

/**
 * Next.js App Router apps: pages render per request unless their segment config says
 * otherwise (`revalidate`, `force-static`), and server actions (`'use server'`) run per
 * form submission. How often each runs decides which side of a key is hot.
 */
export const cases: Case[] = [
  {
    name: 'a ranking index written by a server action and read by two pages; a notice read by a page revalidated hourly',
    files: {
      'package.json': '{ "name": "trivia", "dependencies": { "next": "^14.2.0", "@aws-sdk/lib-dynamodb": "^3.600.0" } }\n',
      'lib/db.ts': `import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const TABLE = process.env.TRIVIA_TABLE!;

export async function recordScore(userId: string, points: number, total: number) {
  await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: { pk: \`USER#\${userId}\`, sk: "PROFILE" },
      UpdateExpression: "ADD points :p SET gsi1pk = :board, gsi1sk = :rank",
      ExpressionAttributeValues: {
        ":p": points,
        ":board": "RANKING", // expect SL001:error
        ":rank": \`\${String(total + points).padStart(8, "0")}#\${userId}\`,
      },
    }),
  );
}

export async function topTen() {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :board",
      ExpressionAttributeValues: { ":board": "RANKING" }, // expect SL001:error
      ScanIndexForward: false,
      Limit: 10,
    }),
  );
  return out.Items ?? [];
}

export async function everyone() {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :board",
      ExpressionAttributeValues: { ":board": "RANKING" }, // expect SL001:error
    }),
  );
  return out.Items ?? [];
}

export async function myRank(userId: string) {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :board and begins_with(gsi1sk, :u)",
      ExpressionAttributeValues: { ":board": "RANKING", ":u": userId }, // expect SL001:error
    }),
  );
  return out.Items?.[0];
}

export async function siteNotice() {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: { pk: "SITE", sk: "NOTICE" } })); // expect SL001:info
  return out.Item?.text as string | undefined;
}
`,
      'app/actions.ts': `"use server";

import { revalidatePath } from "next/cache";
import { recordScore } from "../lib/db";

export async function submitAnswers(userId: string, correct: number, total: number) {
  await recordScore(userId, correct, total);
  revalidatePath("/");
}
`,
      'app/page.tsx': `import { cookies } from "next/headers";
import { myRank, topTen } from "../lib/db";

export default async function Home() {
  const userId = cookies().get("uid")?.value;
  const [top, mine] = await Promise.all([topTen(), userId ? myRank(userId) : undefined]);
  return (
    <main>
      <ol>{top.map((r) => <li key={r.pk}>{r.gsi1sk}</li>)}</ol>
      {mine && <p>You: {mine.gsi1sk}</p>}
    </main>
  );
}
`,
      'app/admin/page.tsx': `import { everyone } from "../../lib/db";

export const dynamic = "force-dynamic";

export default async function Admin() {
  const rows = await everyone();
  return <table>{rows.map((r) => <tr key={r.pk}><td>{r.pk}</td><td>{r.points}</td></tr>)}</table>;
}
`,
      'app/about/page.tsx': `import { siteNotice } from "../../lib/db";

export const revalidate = 3600;

export default async function About() {
  return <p>{(await siteNotice()) ?? "Welcome"}</p>;
}
`,
    },
  },
];
