import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { withBackoff } from './backoff';
import { makeClients } from './clients';
import { isLoopback } from './loopback';
import { classify } from './errors';
import type { HeatConnection, HeatProblem } from './types';

/**
 * The account's table names in the connection's region (`ListTables`, every page), for
 * the pick that maps an environment-named table of the code to a real one. Signed with
 * placeholders against the lab when the default chain has no credentials, as reads are.
 */
export async function listTables(
  connection: HeatConnection,
): Promise<{ ok: true; tables: string[] } | { ok: false; problem: HeatProblem }> {
  const attempt = async (labCredentials: boolean) => {
    const clients = makeClients(connection, labCredentials);
    try {
      const tables: string[] = [];
      let start: string | undefined;
      do {
        const page = await withBackoff(() =>
          clients.ddb.send(new ListTablesCommand({ ExclusiveStartTableName: start, Limit: 100 })),
        );
        tables.push(...(page.TableNames ?? []));
        start = page.LastEvaluatedTableName;
      } while (start);
      return { ok: true as const, tables: tables.sort() };
    } finally {
      clients.destroy();
    }
  };
  const local = isLoopback(connection.endpoint) && !connection.profile;
  try {
    return await attempt(false);
  } catch (e) {
    if (local && (e as { name?: string }).name === 'CredentialsProviderError') {
      try {
        return await attempt(true);
      } catch (e2) {
        return {
          ok: false,
          problem: classify(e2, { action: 'dynamodb:ListTables', connection, resource: 'the account' }),
        };
      }
    }
    return { ok: false, problem: classify(e, { action: 'dynamodb:ListTables', connection, resource: 'the account' }) };
  }
}
