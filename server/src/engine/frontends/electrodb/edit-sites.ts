/**
 * What a fix written in ElectroDB's own terms edits (`LibraryEditSites`): the entity's
 * `attributes` object and each access pattern's partition key as the schema writes them,
 * and at a call the object literal of composite attributes and the `.go(...)` options.
 */
import type { Node } from 'web-tree-sitter';
import type { LibraryEditSites, LibraryPatternSites } from '../../model';
import { spanOf } from '../../syntax/span';
import type { Step } from './chain';
import type { EntitySchema } from './schema';

/** `file` is the file being read: a construction read in its own module may not name its file. */
export function editSites(e: EntitySchema, file: string, argument: Node | null, end: Step | null): LibraryEditSites {
  const patterns: Record<string, LibraryPatternSites> = {};
  for (const p of e.patterns) {
    patterns[p.name] = {
      index: p.index,
      collection: p.collection,
      pkField: p.pk.field,
      pk: p.pk.composite,
      sk: p.sk?.composite ?? [],
      composite: p.pk.compositeArray,
      template: p.pk.templateSpan,
      skField: p.sk?.field ?? null,
    };
  }
  const args = end?.node.childForFieldName('arguments');
  return {
    schemaFile: e.file || file,
    attributes: e.attributesSpan,
    patterns,
    argument: argument?.type === 'object' ? spanOf(argument) : null,
    end: end && args ? { method: end.name, args: spanOf(args) } : null,
  };
}
