import assert from 'node:assert/strict';
import { test } from 'node:test';
import { plural, severityCounts } from '../../protocol/src/plural';

test('counted nouns: singular for one, plural otherwise, with thousands separators', () => {
  assert.equal(plural(1, 'warning'), '1 warning');
  assert.equal(plural(0, 'warning'), '0 warnings');
  assert.equal(plural(2, 'file'), '2 files');
  assert.equal(plural(1, 'live key'), '1 live key');
  assert.equal(plural(1200, 'throttle'), '1,200 throttles');
  assert.equal(plural(3, 'index', 'indexes'), '3 indexes');
});

test('severity counts: "1 error, 1 warning, 1 info", never "1 warnings"', () => {
  assert.equal(severityCounts({ errors: 1, warnings: 1, infos: 1 }), '1 error, 1 warning, 1 info');
  assert.equal(severityCounts({ errors: 5, warnings: 7, infos: 2 }, ' · '), '5 errors · 7 warnings · 2 info');
  assert.equal(severityCounts({ errors: 0, warnings: 0, infos: 0 }), '0 errors, 0 warnings, 0 info');
});
