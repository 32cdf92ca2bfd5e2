import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../protocol/processes.ts';
import { processInfo } from '../../test/process-info.ts';
import type { Confirmation } from './confirm-dialog.ts';
import { quitQuestion, QuitGuard } from './quit-guard.ts';

// Quit while background processes run: the question names them, Cancel holds the quit, Stop them
// and quit lets it (and every later step of it) go on; a quit the person did not ask for passes.

function info(id: string, command: string, ports: number[] = [], state: ProcessInfo['state'] = 'running'): ProcessInfo {
  return processInfo({ id, call_id: `call-${id}`, command, pid: 100, state, uptime_ms: 1000, ports });
}

class Event {
  prevented = false;
  preventDefault(): void {
    this.prevented = true;
  }
}

function setup(processes: ProcessInfo[], answers: boolean[], endingAnyway = false) {
  const asked: Confirmation[] = [];
  let proceeded = 0;
  const pending: ((answer: boolean) => void)[] = [];
  const guard = new QuitGuard({
    anyRunning: () => processes.some((process) => process.state === 'running'),
    running: async () => processes,
    ask: (question) => {
      asked.push(question);
      const answer = answers.shift();
      return answer === undefined ? new Promise((resolve) => pending.push(resolve)) : Promise.resolve(answer);
    },
    endingAnyway: () => endingAnyway,
  });
  const check = (): Event => {
    const event = new Event();
    guard.check(event, () => (proceeded += 1));
    return event;
  };
  return { check, asked, proceeded: () => proceeded, pending };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the question before Quit', () => {
  it('names each running process with its ports, and says what quitting does', () => {
    expect(quitQuestion([info('p1', 'npm run dev', [5173]), info('p2', 'npm run watch')])).toEqual({
      action: 'Stop them and quit',
      message: '2 background processes are running',
      detail:
        'p1: npm run dev (:5173)\np2: npm run watch\n\nQuitting ÆtherCodex stops them and everything they started.',
    });
    expect(quitQuestion([info('p1', 'node server.mjs')])).toMatchObject({
      action: 'Stop it and quit',
      message: 'A background process is running',
    });
    expect(quitQuestion([])).toBeNull();
  });
});

describe('quitting while background processes run', () => {
  it('lets the quit go on at once when none runs', () => {
    const { check, asked } = setup([info('p1', 'x', [], 'exited')], []);
    expect(check().prevented).toBe(false);
    expect(asked).toEqual([]);
  });

  it('holds the quit on Cancel: nothing closes, and the next Quit asks again', async () => {
    const { check, asked, proceeded } = setup([info('p1', 'npm run dev', [5173])], [false, false]);
    expect(check().prevented).toBe(true);
    await settle();
    expect(asked.map((question) => question.detail.split('\n')[0])).toEqual(['p1: npm run dev (:5173)']);
    expect(proceeded()).toBe(0);
    expect(check().prevented).toBe(true);
    await settle();
    expect(asked).toHaveLength(2);
    expect(proceeded()).toBe(0);
  });

  it('goes on with the quit on Stop them and quit, and lets its later steps through unasked', async () => {
    const { check, asked, proceeded } = setup([info('p1', 'npm run dev')], [true]);
    expect(check().prevented).toBe(true);
    await settle();
    expect(proceeded()).toBe(1);
    // The window's close and before-quit that the quit goes on to.
    expect(check().prevented).toBe(false);
    expect(check().prevented).toBe(false);
    expect(asked).toHaveLength(1);
  });

  it('asks once while the question is open: a second Quit waits for the same answer', async () => {
    const { check, asked, proceeded, pending } = setup([info('p1', 'npm run dev')], []);
    expect(check().prevented).toBe(true);
    expect(check().prevented).toBe(true);
    await settle();
    expect(asked).toHaveLength(1);
    pending[0]!(true);
    await settle();
    expect(proceeded()).toBe(1);
  });

  it('never asks when the app ends for another reason (a signal, the system shutting down)', () => {
    const { check, asked } = setup([info('p1', 'npm run dev')], [], true);
    expect(check().prevented).toBe(false);
    expect(asked).toEqual([]);
  });
});
