/**
 * The names of the AWS profiles in the shared config and credentials files, for the
 * connection quick pick. Only section headers are read: a profile's keys (access
 * keys, session tokens, SSO settings) are never parsed, kept or shown.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Profile names declared in one file's text. In the config file a profile is
 * `[default]` or `[profile name]` (other sections such as `[sso-session x]` and
 * `[services x]` are not profiles); in the credentials file every `[name]` is one.
 */
export function profileNames(text: string, kind: 'config' | 'credentials'): string[] {
  const names: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*\[\s*([^\]]+?)\s*\]\s*(?:[#;].*)?$/.exec(line);
    if (!m) continue;
    const section = m[1];
    if (kind === 'credentials') names.push(section);
    else if (section === 'default') names.push('default');
    else {
      const p = /^profile\s+(.+)$/.exec(section);
      if (p) names.push(p[1].trim());
    }
  }
  return names;
}

/** Where the SDKs look for the two files: the environment's override, else ~/.aws/. */
export function sharedFilePaths(env: NodeJS.ProcessEnv = process.env, home = os.homedir()) {
  return {
    config: env.AWS_CONFIG_FILE || path.join(home, '.aws', 'config'),
    credentials: env.AWS_SHARED_CREDENTIALS_FILE || path.join(home, '.aws', 'credentials'),
  };
}

/** Every profile name of both files, `default` first, then alphabetical; missing files count as empty. */
export async function listProfiles(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): Promise<string[]> {
  const files = sharedFilePaths(env, home);
  const read = (f: string) => readFile(f, 'utf8').catch(() => '');
  const [config, credentials] = await Promise.all([read(files.config), read(files.credentials)]);
  const all = new Set([...profileNames(config, 'config'), ...profileNames(credentials, 'credentials')]);
  return [...all].sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b)));
}
