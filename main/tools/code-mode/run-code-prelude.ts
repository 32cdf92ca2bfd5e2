// Code evaluated inside QuickJS before the program: it builds `console` and `tools` around the two
// host functions and returns what the worker keeps for itself: the value renderer, and `deliver`,
// which settles a nested call's promise. The promises of nested calls live here, inside QuickJS,
// keyed by the call's id (hostCall only records the call and answers its id), so a call costs the
// host no promise handles and a batch of replies is one call each into the interpreter. The host
// functions are passed as arguments, so they never sit on the global object where the program
// could find them; even if it did, they grant nothing beyond `console.*` and `tools.*`.

/**
 * A function expression: (hostLog, hostCall, hostSettled, namesJson, firstId) => { render(value) →
 * string | null, deliver(id, ok, text), watch(program) } where text is the result's JSON (null for
 * none) or the error message. Call ids count up from firstId; hostCall(id, name, argsJson) answers
 * nothing. watch tells hostSettled once the program's promise settles.
 */
export const PRELUDE = String.raw`(function (hostLog, hostCall, hostSettled, namesJson, firstId) {
  'use strict';
  const PromiseOf = Promise;
  const waiting = new Map();
  let nextId = firstId;
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
      new PromiseOf((resolve, reject) => {
        const json = JSON.stringify(args === undefined ? {} : args);
        const id = nextId++;
        hostCall(id, name, json);
        waiting.set(id, { resolve, reject });
      });
  }
  const deliver = (id, ok, text) => {
    const call = waiting.get(id);
    if (call === undefined) return;
    waiting.delete(id);
    if (!ok) {
      // Without a stack of its own here, the error gets the program's frames where it is thrown: at the await.
      const error = new Error(text);
      delete error.stack;
      return call.reject(error);
    }
    if (text === null) return call.resolve(undefined);
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return call.reject(error);
    }
    call.resolve(value);
  };
  Object.defineProperty(globalThis, 'console', { value: console, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(globalThis, 'tools', { value: Object.freeze(tools), writable: false, enumerable: false, configurable: false });
  const render = (value) => {
    if (value === undefined) return null;
    if (typeof value === 'string') return value;
    const json = JSON.stringify(value, null, 2);
    return json === undefined ? String(value) : json;
  };
  const watch = (program) => {
    program.then(() => hostSettled(), () => hostSettled());
  };
  return { render, deliver, watch };
})`;

/**
 * The program becomes the body of an async function. The opening stays on the program's first
 * line, so line numbers in errors match the program as the model wrote it.
 */
export function wrapProgram(code: string): string {
  return `(async function program() {${code}\n})()`;
}
