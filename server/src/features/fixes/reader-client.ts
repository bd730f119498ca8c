import type { ImportInfo } from '../../engine';
import type { Needed } from '../generate/imports';
import type { ReaderStyle } from './reader-style';

/** How a reader names its client's type and SDK v2's converters, with the imports that needs. */

/**
 * How the file names SDK v2's `DynamoDB` namespace (`AWS.DynamoDB`, `DynamoDB`), adding
 * `import { DynamoDB } from 'aws-sdk'` when it names none.
 */
export function v2Namespace(imports: ImportInfo[], needs: Needed[], member: string): string {
  for (const i of imports) {
    const def = i.names.find((n) => n.startsWith('default as '))?.slice('default as '.length);
    if (i.module === 'aws-sdk' && i.names.includes('DynamoDB')) return `DynamoDB.${member}`;
    if (i.module === 'aws-sdk' && def) return `${def}.DynamoDB.${member}`;
    if (i.module === 'aws-sdk/clients/dynamodb' && def) return `${def}.${member}`;
  }
  needs.push({ module: 'aws-sdk', name: 'DynamoDB' });
  return `DynamoDB.${member}`;
}

/**
 * The TypeScript type of a client parameter, with the import it needs; undefined when the
 * style has none. Through `namespace` (the file's `import * as DDB` of the package) nothing is imported.
 */
export function clientType(
  style: ReaderStyle,
  imports: ImportInfo[],
  needs: Needed[],
  namespace: string | null = null,
): string | null | undefined {
  const method = style.call === 'method';
  const named = (module: string, name: string) => {
    if (namespace) return `${namespace}.${name}`;
    needs.push({ module, name });
    return name;
  };
  switch (style.sdk) {
    case 'lib-dynamodb':
      return named('@aws-sdk/lib-dynamodb', method ? 'DynamoDBDocument' : 'DynamoDBDocumentClient');
    case 'aws-sdk-v3':
      return named('@aws-sdk/client-dynamodb', method ? 'DynamoDB' : 'DynamoDBClient');
    case 'aws-sdk-v2-document-client':
      return v2Namespace(imports, [], 'DocumentClient').replace(
        /^DynamoDB\.DocumentClient$/,
        (x) => (needs.push({ module: 'aws-sdk', name: 'DynamoDB' }), x),
      );
    case 'aws-sdk-v2':
      return v2Namespace(imports, needs, 'X').replace(/\.X$/, '');
    default:
      return null;
  }
}
