import { getQuickJS, type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule } from 'quickjs-emscripten';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installFastCall } from './run-code-fast-call.ts';

let quickjs: QuickJSWASMModule;
let ctx: QuickJSContext | null = null;

beforeAll(async () => {
  quickjs = await getQuickJS();
});

afterEach(() => {
  ctx?.dispose();
  ctx = null;
});

function expose(context: QuickJSContext, name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | void): void {
  const handle = context.newFunction(name, fn);
  context.setProp(context.global, name, handle);
  handle.dispose();
}

describe('the fast path of the nested call', () => {
  it('takes over the marked host function with this quickjs-emscripten and hands it the id and both strings', () => {
    ctx = quickjs.newContext();
    const context = ctx;
    const generic: string[] = [];
    const marker = (...args: QuickJSHandle[]): void => {
      generic.push(args.map((arg) => String(context.dump(arg))).join(','));
    };
    expose(context, 'hostCall', marker);
    expose(context, 'double', (value) => context.newNumber(context.getNumber(value) * 2));
    const fast: [number, string, string][] = [];
    expect(installFastCall(quickjs, context, marker, (id, name, json) => fast.push([id, name, json]))).toBe(true);

    const result = context.unwrapResult(
      context.evalCode(`hostCall(7, 'read_file', JSON.stringify({ path: 'é/ü.txt' }));
        const answer = hostCall(8, 'noop', '{}');
        hostCall('only', 'two');
        [answer === undefined, double(21)]`),
    );
    expect(context.dump(result)).toEqual([true, 42]);
    result.dispose();
    expect(fast).toEqual([
      [7, 'read_file', '{"path":"é/ü.txt"}'],
      [8, 'noop', '{}'],
    ]);
    // Another shape of call, and every other host function, still go through the library's glue.
    expect(generic).toEqual(['only,two']);
  });

  it('leaves the glue in place where the library does not look as expected', () => {
    const stranger = {} as QuickJSContext;
    expect(
      installFastCall(
        quickjs,
        stranger,
        () => undefined,
        () => undefined,
      ),
    ).toBe(false);
  });
});
