// JSON.stringify that stops once it has written more than `budget` characters, so the echo of a
// huge result never serialises the whole of it. The prefix it writes is exactly JSON.stringify's.

class BudgetReached extends Error {}

export function boundedJson(value: unknown, budget: number): string {
  const parts: string[] = [];
  let written = 0;
  const seen = new Set<object>();

  const write = (text: string): void => {
    parts.push(text);
    written += text.length;
    if (written > budget) throw new BudgetReached();
  };

  const toJsonValue = (key: string, input: unknown): unknown => {
    if (typeof input === 'bigint') return input.toString();
    const toJSON = input !== null && typeof input === 'object' ? (input as { toJSON?: unknown }).toJSON : undefined;
    return typeof toJSON === 'function' ? (toJSON as (key: string) => unknown).call(input, key) : input;
  };

  const isSkipped = (input: unknown): boolean =>
    input === undefined || typeof input === 'function' || typeof input === 'symbol';

  const visit = (input: unknown): void => {
    if (input === null || isSkipped(input)) return write('null');
    if (typeof input !== 'object') {
      if (typeof input === 'number') return write(Number.isFinite(input) ? String(input) : 'null');
      if (typeof input === 'boolean') return write(String(input));
      // A string longer than the budget is cut first: its JSON prefix is the same either way.
      const text = String(input);
      return write(JSON.stringify(text.length > budget ? text.slice(0, budget) : text));
    }
    const object = input;
    if (seen.has(object)) return write('"[Circular]"');
    seen.add(object);
    if (Array.isArray(object)) {
      write('[');
      object.forEach((item, index) => {
        if (index > 0) write(',');
        visit(toJsonValue(String(index), item));
      });
      write(']');
    } else {
      write('{');
      let first = true;
      for (const key of Object.keys(object)) {
        const item = toJsonValue(key, (object as Record<string, unknown>)[key]);
        if (isSkipped(item)) continue;
        write(first ? '' : ',');
        write(`${JSON.stringify(key)}:`);
        visit(item);
        first = false;
      }
      write('}');
    }
    seen.delete(object);
  };

  try {
    const root = toJsonValue('', value);
    if (isSkipped(root)) return '';
    visit(root);
  } catch (error) {
    if (!(error instanceof BudgetReached)) throw error;
  }
  return parts.join('');
}
