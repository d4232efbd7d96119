// What `callsign --help`, `callsign help COMMAND` and `callsign COMMAND --help` print: a `Usage:` line, then
// the command's entries of the whole help.

/**
 * The entries of one command in a help text: each line that starts with two spaces and the command's name,
 * with the lines indented further that go on from it.
 */
export function usageOf(help: string, command: string, hasActions: boolean): string | undefined {
  const entries: string[] = [];
  let inEntry = false;
  for (const line of help.split('\n')) {
    const starts = /^ {2}(\S+)/.exec(line);
    if (starts) inEntry = starts[1] === command;
    else if (!/^ {3,}\S/.test(line)) inEntry = false;
    if (inEntry) entries.push(line);
  }
  const line = hasActions ? `Usage: callsign ${command} <action> [options]` : `Usage: callsign ${command}`;
  return entries.length ? `${line}\n\n${entries.join('\n')}` : undefined;
}
