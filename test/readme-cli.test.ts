// The README and `drover --help` agree: every drover command and flag the README mentions
// exists, and every flag a command's --help lists is described in the README's command table.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { readmeCommands } from './support/readme.js';
import { DROVER_BIN } from './support/server-process.js';

const README = resolve(import.meta.dirname, '../../README.md');

const helps = new Map<string, string>();
function help(...command: string[]): string {
  const key = command.join(' ');
  if (!helps.has(key)) helps.set(key, execFileSync(DROVER_BIN, [...command, '--help'], { encoding: 'utf8' }));
  return helps.get(key)!;
}

/** The lines of one section (`Commands:`, `Options:`) of commander's help. */
function helpSection(text: string, title: string): string[] {
  const start = text.split('\n').findIndex((line) => line === `${title}:`);
  if (start < 0) return [];
  const lines = text.split('\n').slice(start + 1);
  const end = lines.findIndex((line) => !line.startsWith(' '));
  return end < 0 ? lines : lines.slice(0, end);
}

/** The long flags a command's --help lists, but not --help itself. */
function helpFlags(command: string): string[] {
  return helpSection(help(command), 'Options')
    .flatMap((line) => /^\s+(?:-\w, )?(--[a-z][a-z-]*)/.exec(line)?.[1] ?? [])
    .filter((flag) => flag !== '--help');
}

const longFlags = (text: string) => [...text.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);

describe('the README and drover --help', () => {
  const readme = readFileSync(README, 'utf8');
  const commands = helpSection(help(), 'Commands')
    .flatMap((line) => /^ {2}([a-z][a-z-]*)/.exec(line)?.[1] ?? [])
    .filter((c) => c !== 'help');
  // The command table: one row per command, `| `drover NAME ...` | what it does, with its flags |`.
  const rows = new Map(
    readme.split('\n').flatMap((line) => {
      const match = /^\| `drover ([a-z][a-z-]*)/.exec(line);
      return match ? [[match[1]!, line] as const] : [];
    }),
  );

  it('names only commands that exist', () => {
    assert.ok(commands.length >= 6, `drover --help lists its commands: ${commands.join(', ')}`);
    const mentioned = new Set([...readme.matchAll(/\bdrover ([a-z][a-z-]*)/g)].map((m) => m[1]!));
    assert.deepEqual(
      [...mentioned].filter((c) => !commands.includes(c)),
      [],
    );
  });

  it('has a row in the command table for every command, naming only flags it has', () => {
    assert.deepEqual(
      commands.filter((c) => !rows.has(c)),
      [],
      'commands without a row',
    );
    for (const [command, row] of rows) {
      const flags = helpFlags(command);
      assert.deepEqual(
        longFlags(row).filter((f) => !flags.includes(f)),
        [],
        `flags in the README's row for drover ${command} that it does not have`,
      );
    }
  });

  it('describes every flag of every command in its row of the table', () => {
    for (const command of commands) {
      const described = longFlags(rows.get(command) ?? '');
      assert.deepEqual(
        helpFlags(command).filter((f) => !described.includes(f)),
        [],
        `flags of drover ${command} missing from its README row`,
      );
    }
  });

  it('types only flags the command has in its shell examples', () => {
    const typed = readmeCommands(README).flatMap(({ command, line }) => {
      const match = /\bdrover ([a-z][a-z-]*)(.*)/.exec(command);
      return match ? [{ command: match[1]!, flags: longFlags(match[2]!), line }] : [];
    });
    assert.ok(typed.length > 0, 'the README runs drover somewhere');
    for (const { command, flags, line } of typed) {
      const known = helpFlags(command);
      assert.deepEqual(
        flags.filter((f) => !known.includes(f)),
        [],
        `README line ${line}: drover ${command}`,
      );
    }
  });
});
