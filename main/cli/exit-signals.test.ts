import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExitSignals, stopReason, type ExitSignal } from './exit-signals.ts';

// The signals a command listens to, from a stand-in process: what the first one does before and
// after the command said how to stop, and what a second one does.

function setup() {
  const target = Object.assign(new EventEmitter(), { stdout: new PassThrough(), stderr: new PassThrough() });
  const exits: number[] = [];
  const signals = new ExitSignals({
    target: target as unknown as NodeJS.Process,
    exitNow: (code) => exits.push(code),
  });
  return { target, exits, signals };
}

describe('the signals that end a command', () => {
  it('end it at once, with 128 + the signal, before it says how to stop', () => {
    const { target, exits, signals } = setup();
    target.emit('SIGTERM', 'SIGTERM');
    expect(exits).toEqual([143]);
    expect(signals.exitCode).toBe(143);
  });

  it('stop it the way it said once it did, and end it at once at a second signal', () => {
    const { target, exits, signals } = setup();
    const stops: ExitSignal[] = [];
    signals.stopWith((signal) => stops.push(signal));

    target.emit('SIGHUP', 'SIGHUP');
    expect(stops).toEqual(['SIGHUP']);
    expect(exits).toEqual([]);
    expect(signals.exitCode).toBe(129);

    target.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([130]);
    expect(stops).toHaveLength(1);
  });

  it('keep a write to a terminal that closed from failing the command', () => {
    const { target, signals } = setup();
    signals.stopWith(() => undefined);
    target.emit('SIGHUP', 'SIGHUP');
    expect(() => target.stdout.emit('error', new Error('EIO'))).not.toThrow();
  });

  it('listen no more once disposed', () => {
    const { target, signals } = setup();
    signals.dispose();
    expect(target.listenerCount('SIGTERM')).toBe(0);
  });

  it('are named in the log, Ctrl-C being the person’s Stop', () => {
    expect(stopReason('SIGINT', 'aether run')).toBeUndefined();
    expect(stopReason('SIGTERM', 'aether run')).toBe('Stopped: aether run was sent SIGTERM.');
    expect(stopReason('SIGHUP', 'aether run')).toBe('Stopped: the terminal of aether run closed (SIGHUP).');
  });
});
