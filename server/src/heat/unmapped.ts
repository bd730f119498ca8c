import { isPlaceholderTable, resolveTable } from '../../../protocol/src/settings';
import type { HeatProblem } from './types';

/**
 * Tables the code names through the environment (`$SCORES_TABLE_NAME`): the name is the
 * code's, not AWS's, so it is never sent. Live heat reads the table it is mapped to
 * (`shardlens.tables` in the editor, `--map-table` on the command line), and says which
 * are not mapped yet.
 */
export { isPlaceholderTable, resolveTable };

export function unmappedProblem(names: string[]): HeatProblem {
  const one = names.length === 1;
  return {
    code: 'table-unmapped',
    message:
      `${one ? 'Table' : 'Tables'} ${names.join(', ')} ${one ? 'is' : 'are'} named by an environment variable in the code, ` +
      `and ShardLens never sends such a name to AWS: map ${one ? 'it' : 'them'} to a table of this account ` +
      `(the command "ShardLens: Map Environment Tables", the setting shardlens.tables, or --map-table NAME=TABLE).`,
    command: null,
  };
}
