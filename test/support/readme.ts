// Reads README.md the way a person does: the ```sh blocks, in order, each line one command to
// type, with the comment after it (what the README says the command shows), and the heading
// it stands under.
import { readFileSync } from 'node:fs';

export interface ReadmeCommand {
  /** The command as typed, without its comment. */
  command: string;
  /** What the README says beside it (the text after ` # `), or '' when it says nothing. */
  comment: string;
  /** The heading of the section it stands in ('' before the first heading). */
  section: string;
  /** 1-based line in README.md, for failure messages. */
  line: number;
}

/** Every command of every ```sh block, in README order. */
export function readmeCommands(path: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let section = '';
  let inShell = false;
  let inOtherFence = false;
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.startsWith('```')) {
        if (inShell || inOtherFence) inShell = inOtherFence = false;
        else if (text.trim() === '```sh') inShell = true;
        else inOtherFence = true;
        return;
      }
      if (inShell) {
        const { command, comment } = splitComment(text);
        if (command) commands.push({ command, comment, section, line: index + 1 });
      } else if (!inOtherFence && /^#+ /.test(text)) {
        section = text.replace(/^#+ /, '').trim();
      }
    });
  return commands;
}

/** Splits `cmd  # comment` at the first `#` that starts a word outside quotes, as sh does. */
export function splitComment(line: string): { command: string; comment: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
    }
  }
  return { command: line.trim(), comment: '' };
}
