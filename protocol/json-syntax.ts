// Where JSON text a person edited first goes wrong, as line and column, so a message can send them
// to the spot. JSON.parse names a position for some mistakes only (not for a comma before `]`), so
// text it refused is scanned again here, by the grammar of RFC 8259.

export interface JsonSyntaxError {
  /** 1-based, as editors count. */
  line: number;
  /** 1-based, in UTF-16 code units from the start of the line. */
  column: number;
  /** What is wrong there, in words. */
  reason: string;
}

class SyntaxAt extends Error {
  readonly offset: number;
  readonly reason: string;

  constructor(offset: number, reason: string) {
    super(reason);
    this.offset = offset;
    this.reason = reason;
  }
}

/** The first syntax error of `text`, or null when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  try {
    new JsonScan(text).document();
    return null;
  } catch (error) {
    if (error instanceof SyntaxAt) return { ...lineAndColumn(text, error.offset), reason: error.reason };
    // Nesting deeper than the stack: JSON.parse's own words, at the start of the file.
    try {
      JSON.parse(text);
      return null;
    } catch (parseError) {
      return { line: 1, column: 1, reason: (parseError as Error).message };
    }
  }
}

/** A step into a JSON value: a property name or a list index. */
export type JsonStep = string | number;

/**
 * The line where the value at `at` starts in valid JSON text (`["hooks", "PreToolUse", 0]`), so a
 * message about a value that parsed but means nothing can name its line; null when none is there.
 */
export function jsonValueLine(text: string, at: readonly JsonStep[]): number | null {
  const wanted = JSON.stringify(at);
  let found: number | null = null;
  try {
    new JsonScan(text, (steps, offset) => {
      if (found === null && JSON.stringify(steps) === wanted) found = offset;
    }).document();
  } catch {
    return null;
  }
  return found === null ? null : lineAndColumn(text, found).line;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class JsonScan {
  private readonly text: string;
  private at = 0;
  /** Where the scan is, for `visit`: the property names and indexes down to the current value. */
  private readonly steps: JsonStep[] = [];
  private readonly visit: ((steps: readonly JsonStep[], offset: number) => void) | undefined;

  constructor(text: string, visit?: (steps: readonly JsonStep[], offset: number) => void) {
    this.text = text;
    this.visit = visit;
  }

  document(): void {
    this.value();
    this.space();
    if (this.at < this.text.length) this.fail('more text after the end of the JSON value');
  }

  private value(): void {
    this.space();
    this.visit?.(this.steps, this.at);
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return;
      }
    }
    if (char === undefined) this.fail('the text ends where a value should be');
    if (char === "'") this.fail('a string in single quotes: JSON strings take double quotes');
    this.fail(`${shown(char)} where a value should be`);
  }

  private object(): void {
    this.at += 1;
    this.space();
    if (this.text[this.at] === '}') {
      this.at += 1;
      return;
    }
    for (;;) {
      this.space();
      const char = this.text[this.at];
      if (char === '}') this.fail("a comma before '}': JSON allows none after the last property");
      if (char === "'") this.fail('a property name in single quotes: JSON takes double quotes');
      if (char !== '"') this.fail(`${shown(char)} where a property name in double quotes should be`);
      const nameStart = this.at;
      this.string();
      const name = this.visit ? (JSON.parse(this.text.slice(nameStart, this.at)) as string) : '';
      this.space();
      if (this.text[this.at] !== ':')
        this.fail(`${shown(this.text[this.at])} where ':' should follow the property name`);
      this.at += 1;
      this.steps.push(name);
      this.value();
      this.steps.pop();
      this.space();
      const next = this.text[this.at];
      this.at += 1;
      if (next === '}') return;
      if (next !== ',') {
        this.at -= 1;
        this.fail(`${shown(next)} where ',' or '}' should follow a property value`);
      }
    }
  }

  private array(): void {
    this.at += 1;
    this.space();
    if (this.text[this.at] === ']') {
      this.at += 1;
      return;
    }
    for (let index = 0; ; index += 1) {
      this.space();
      if (this.text[this.at] === ']') this.fail("a comma before ']': JSON allows none after the last item");
      this.steps.push(index);
      this.value();
      this.steps.pop();
      this.space();
      const next = this.text[this.at];
      this.at += 1;
      if (next === ']') return;
      if (next !== ',') {
        this.at -= 1;
        this.fail(`${shown(next)} where ',' or ']' should follow an item`);
      }
    }
  }

  private string(): void {
    const start = this.at;
    this.at += 1;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) {
        this.at = start;
        this.fail('a string that is never closed');
      }
      if (char === '"') {
        this.at += 1;
        return;
      }
      if (char === '\\') {
        const escape = this.text[this.at + 1];
        if (escape === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) this.at += 6;
        else if (escape !== undefined && '"\\/bfnrt'.includes(escape)) this.at += 2;
        else this.fail('a backslash that starts no escape (write \\\\ for a backslash)');
        continue;
      }
      if (char < ' ') this.fail('a line break or control character inside a string (write \\n for a line break)');
      this.at += 1;
    }
  }

  private number(): void {
    NUMBER.lastIndex = this.at;
    const found = NUMBER.exec(this.text);
    if (!found) this.fail(`${shown(this.text[this.at])} where a value should be`);
    this.at += found[0].length;
  }

  private space(): void {
    while (' \t\n\r'.includes(this.text[this.at] ?? 'end')) this.at += 1;
  }

  private fail(reason: string): never {
    throw new SyntaxAt(this.at, reason);
  }
}

function shown(char: string | undefined): string {
  if (char === undefined) return 'the end of the text';
  if (char === '\uFEFF') return 'a byte order mark';
  return char >= ' ' ? `'${char}'` : JSON.stringify(char);
}
