// Static bearer tokens (kube-apiserver's --token-auth-file): a CSV of
//   token,user,uid,"group1,group2"
// one per line; the groups column is optional, and so is its quoting when it names one group.
import { readFileSync } from 'node:fs';
import type { UserInfo } from '../types.js';
import type { TokenAuthenticator } from './authenticator.js';

export function loadTokenFile(path: string): TokenAuthenticator {
  const users = parseTokenFile(readFileSync(path, 'utf8'), path);
  return { authenticateToken: (token) => users.get(token) };
}

export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const users = new Map<string, UserInfo>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = csvFields(line);
    const [token, username, uid, groups] = fields;
    if (!token || !username || fields.length < 3) throw new Error(`${source}:${index + 1}: expected token,user,uid[,"group1,group2"]`);
    const user: UserInfo = {
      username,
      groups: groups
        ? groups
            .split(',')
            .map((g) => g.trim())
            .filter(Boolean)
        : [],
    };
    if (uid) user.uid = uid;
    users.set(token, user);
  });
  return users;
}

/** Splits one CSV line, with "double-quoted" fields that may hold commas and "" for a quote. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') ((field += '"'), i++);
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') (fields.push(field.trim()), (field = ''));
    else field += char;
  }
  fields.push(field.trim());
  return fields;
}
