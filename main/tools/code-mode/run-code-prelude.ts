// Code evaluated inside QuickJS before the program: it builds `console` and `tools` around the two
// host functions and returns the value renderer the worker keeps for itself. The host functions
// are passed as arguments, so they never sit on the global object where the program could find
// them; even if it did, they grant nothing beyond `console.*` and `tools.*`.

/** A function expression: (hostLog, hostCall, namesJson) => render(value) → string | null. */
export const PRELUDE = String.raw`(function (hostLog, hostCall, namesJson) {
  'use strict';
  const describe = (value) => {
    if (typeof value === 'string') return value;
    if (value === undefined) return 'undefined';
    if (typeof value === 'function') return '[Function' + (value.name ? ': ' + value.name : '') + ']';
    if (typeof value === 'symbol') return value.toString();
    if (typeof value === 'bigint') return String(value) + 'n';
    if (value instanceof Error) return value.name + ': ' + value.message;
    try {
      const json = JSON.stringify(value, null, 2);
      return json === undefined ? String(value) : json;
    } catch (error) {
      return String(value);
    }
  };
  const printer = (level) => (...values) => {
    hostLog(level, values.map(describe).join(' '));
  };
  const console = Object.freeze({
    log: printer('log'),
    info: printer('info'),
    debug: printer('log'),
    warn: printer('warn'),
    error: printer('error'),
  });
  const tools = Object.create(null);
  for (const name of JSON.parse(namesJson)) {
    tools[name] = (args) =>
      hostCall(name, JSON.stringify(args === undefined ? {} : args)).then((json) => (json === null ? undefined : JSON.parse(json)));
  }
  Object.defineProperty(globalThis, 'console', { value: console, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(globalThis, 'tools', { value: Object.freeze(tools), writable: false, enumerable: false, configurable: false });
  return (value) => {
    if (value === undefined) return null;
    if (typeof value === 'string') return value;
    const json = JSON.stringify(value, null, 2);
    return json === undefined ? String(value) : json;
  };
})`;

/**
 * The program becomes the body of an async function. The opening stays on the program's first
 * line, so line numbers in errors match the program as the model wrote it.
 */
export function wrapProgram(code: string): string {
  return `(async function program() {${code}\n})()`;
}
