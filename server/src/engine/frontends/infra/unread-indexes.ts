/**
 * The index names an infrastructure file states in its text, read without parsing it: for a
 * file that could not be read (malformed YAML, a Terraform syntax error). A stage's copy of a
 * template that is broken may be the only one defining an index, so a query naming one of
 * these is not called undefined on the strength of the files that could be read.
 */
export function indexNamesStated(text: string): string[] {
  const names = new Set<string>();
  // CloudFormation / SAM / Serverless resources, YAML or JSON: `IndexName: GSI_2`, `"IndexName": "GSI_2"`.
  for (const m of text.matchAll(/["']?IndexName["']?\s*:\s*["']?([A-Za-z0-9_.-]{3,255})/g)) names.add(m[1]);
  // Terraform: `global_secondary_index { name = "GSI_2" ... }` (and local ones).
  for (const m of text.matchAll(/(?:global|local)_secondary_index\s*\{[^}]*?\bname\s*=\s*"([A-Za-z0-9_.-]{3,255})"/g))
    names.add(m[1]);
  return [...names];
}
