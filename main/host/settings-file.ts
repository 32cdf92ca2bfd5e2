import { readFile } from 'node:fs/promises';
import { errorMessage } from '../../protocol/errors.ts';
import { isRecord } from '../../protocol/json.ts';
import { jsonSyntaxError } from '../../protocol/json-syntax.ts';

// settings.json is used whole or not at all: text that is not one JSON object is refused with
// where it goes wrong (line:column), and the store writes nothing over it until it is fixed, so a
// person's deny rules are never swapped for the defaults behind their back.

export type SettingsFileRead =
  { state: 'absent' } | { state: 'read'; json: Record<string, unknown> } | { state: 'unreadable'; error: string };

const UNTIL_FIXED =
  'Until it is fixed no session starts and no setting is saved over it: correct it (or move it away to start from the defaults), then try again.';

export async function readSettingsFile(file: string): Promise<SettingsFileRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    // No file there (or no folder): nothing to lose, the defaults apply.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'absent' };
    return {
      state: 'unreadable',
      error: `The settings file ${file} cannot be read: ${errorMessage(error)}. ${UNTIL_FIXED}`,
    };
  }
  return settingsOfText(file, text);
}

export function settingsOfText(file: string, text: string): SettingsFileRead {
  // Editors that write a byte order mark mean nothing by it.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  // An empty file holds nothing to lose.
  if (body.trim() === '') return { state: 'absent' };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    const at = jsonSyntaxError(body);
    const where = at
      ? `at line ${at.line}, column ${at.column} (${file}:${at.line}:${at.column}): ${at.reason}`
      : `(${errorMessage(error)})`;
    return { state: 'unreadable', error: `The settings file ${file} is not valid JSON ${where}. ${UNTIL_FIXED}` };
  }
  if (!isRecord(json)) {
    const what = json === null ? 'null' : Array.isArray(json) ? 'a list' : `a ${typeof json}`;
    return {
      state: 'unreadable',
      error: `The settings file ${file} holds ${what}, not a JSON object such as {"theme": "dark"}. ${UNTIL_FIXED}`,
    };
  }
  return { state: 'read', json };
}
