/**
 * Acceptance tests written as BDD steps (cucumber-js, jest-cucumber, behave) are tests by
 * what they import, not by their file names, and their runner calls the steps: a helper
 * module only the steps call is reached only from test code. The same key reached from a
 * handler as well stays hot.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { at, findingsOf, fixture } from './helpers';

test('cucumber-js: a reset helper only step definitions call is noted at info, from test code', async () => {
  const fs = await findingsOf(fixture('bdd-boards'));
  for (const line of [5, 9]) {
    const f = at(fs, `features/support/db-reset.ts:${line}`);
    assert.equal(f.severity, 'info');
    assert.match(f.message, /Reach: only from test code \(features\/step_definitions\/boards\.steps\.ts:1\)/);
  }
});

test('cucumber-js: a function the steps and a Lambda handler both call stays an error', async () => {
  const f = at(await findingsOf(fixture('bdd-boards')), 'src/featured.ts:6');
  assert.equal(f.severity, 'error');
  assert.doesNotMatch(f.message, /only from test code/);
});

test('cucumber-js: without the framework import the step file is no test, and the helper stays an error', async () => {
  const files = fixture('bdd-boards');
  const steps = 'features/step_definitions/boards.steps.ts';
  const plain = {
    ...files,
    [steps]: files[steps]
      .replace(
        "import { Before, Given, Then } from '@cucumber/cucumber';",
        "import { Before, Given, Then } from './dsl';",
      )
      .replace(/^Before\(/m, 'export const setUp = () => Before('),
  };
  assert.notEqual(plain[steps], files[steps]);
  const f = at(await findingsOf(plain), 'features/support/db-reset.ts:5');
  assert.equal(f.severity, 'error');
});

test('behave: a helper only decorated steps call (the runner calls them, not the module) is noted at info', async () => {
  const fs = await findingsOf(fixture('behave-settings'));
  for (const line of [7, 11]) {
    const f = at(fs, `features/support/db.py:${line}`);
    assert.equal(f.severity, 'info');
    assert.match(f.message, /Reach: only from test code \(features\/steps\/settings_steps\.py:1\)/);
  }
});

test('pytest: a helper called only inside test functions is reached from the test file', async () => {
  const files = fixture('behave-settings');
  const pytestStyle = {
    ...files,
    'features/steps/settings_steps.py': [
      'import pytest',
      '',
      'from features.support.db import clear_defaults, reset_defaults',
      '',
      '',
      '@pytest.fixture',
      'def defaults():',
      '    reset_defaults()',
      '    yield',
      '    clear_defaults()',
      '',
      '',
      'def test_defaults(defaults):',
      '    assert True',
      '',
    ].join('\n'),
  };
  const f = at(await findingsOf(pytestStyle), 'features/support/db.py:7');
  assert.equal(f.severity, 'info');
  assert.match(f.message, /only from test code/);
});

test('behave: hooks in features/environment.py (which imports nothing of behave) are test code', async () => {
  const files = fixture('behave-settings');
  const hooks = {
    ...files,
    // The steps no longer reset anything: behave's hooks do, before and after each scenario.
    'features/steps/settings_steps.py': files['features/steps/settings_steps.py']
      .replace('from features.support.db import clear_defaults, reset_defaults\n', '')
      .replace(/^ {4}(?:reset|clear)_defaults\(\)\n/gm, '    pass\n'),
    'features/environment.py': [
      'from features.support.db import clear_defaults, reset_defaults',
      '',
      '',
      'def before_scenario(context, scenario):',
      '    reset_defaults()',
      '',
      '',
      'def after_scenario(context, scenario):',
      '    clear_defaults()',
      '',
    ].join('\n'),
  };
  assert.doesNotMatch(hooks['features/steps/settings_steps.py'], /_defaults\(\)/);
  for (const line of [7, 11]) {
    const f = at(await findingsOf(hooks), `features/support/db.py:${line}`);
    assert.equal(f.severity, 'info');
    assert.match(f.message, /Reach: only from test code \(features\/environment\.py:1\)/);
  }
  // The same functions in a module of the app, not behave's environment.py: no test.
  const renamed = { ...hooks, 'features/hooks.py': hooks['features/environment.py'] };
  delete (renamed as Record<string, string>)['features/environment.py'];
  const f = at(await findingsOf(renamed), 'features/support/db.py:7');
  assert.doesNotMatch(f.message, /only from test code/);
});
