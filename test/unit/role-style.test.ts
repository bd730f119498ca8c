import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roleOfFile } from '../../server/src/engine/file-roles';

/**
 * A file's content role is read with the patterns of the front-end that reads the file
 * (`FrontEnd.contentRoles`), not guessed from a suffix: a `.pyi` stub is Python to the
 * parser, so its `import pytest` is a test framework's import.
 */
test("a file's content role is read with its front-end's patterns", () => {
  const pytest = 'import pytest\n\n\ndef put(pk): ...\n';
  assert.equal(roleOfFile('/srv/shop/orders/store.py', pytest), 'test');
  assert.equal(roleOfFile('/srv/shop/orders/store.pyi', pytest), 'test');
  // The same words in a TypeScript file are no import of a test framework.
  assert.equal(roleOfFile('/srv/shop/orders/store.ts', 'import pytest\n\nexport function put() {}\n'), 'app');
  const vitest = "import { describe, it } from 'vitest';\n";
  assert.equal(roleOfFile('/srv/shop/orders/store.test-helpers.ts', vitest), 'test');
  assert.equal(roleOfFile('/srv/shop/orders/store.py', vitest), 'app');
});
