import { describe, expect, it } from 'vitest';
import { elicitFieldProblem, elicitProblems, type ElicitField } from '../protocol/elicitation.ts';

// The check a form's answer passes before it goes back to the MCP server (the panel runs it before
// Accept, the app again on receipt): each kind of field, its limits, and what a blank field means.

const base = { description: '', required: false };
const text = (extra: Partial<Extract<ElicitField, { kind: 'text' }>> = {}): ElicitField => ({
  ...base,
  name: 'field',
  label: 'Field',
  kind: 'text',
  ...extra,
});

describe('a form answer', () => {
  it('refuses text outside its length or format, and takes what fits', () => {
    expect(elicitFieldProblem(text({ min_length: 3 }), 'ab')).toBe('Field needs at least 3 characters.');
    expect(elicitFieldProblem(text({ max_length: 3 }), 'abcd')).toBe('Field takes at most 3 characters.');
    expect(elicitFieldProblem(text({ format: 'email' }), 'nobody')).toBe('Field must be an email address.');
    expect(elicitFieldProblem(text({ format: 'email' }), 'a@b.io')).toBeNull();
    expect(elicitFieldProblem(text({ format: 'uri' }), 'not a uri')).toBe('Field must be an address (a URI).');
    expect(elicitFieldProblem(text({ format: 'uri' }), 'https://example.com/x')).toBeNull();
    expect(elicitFieldProblem(text({ format: 'date' }), '7 Dec')).toBe('Field must be a date (YYYY-MM-DD).');
    expect(elicitFieldProblem(text({ format: 'date' }), '2026-12-07')).toBeNull();
    expect(elicitFieldProblem(text({ format: 'date-time' }), 'soon')).toBe('Field must be a date and time.');
  });

  it('refuses numbers out of range or not whole where whole ones are asked for', () => {
    const count: ElicitField = {
      ...base,
      name: 'n',
      label: 'Count',
      kind: 'number',
      integer: true,
      minimum: 1,
      maximum: 5,
    };
    expect(elicitFieldProblem(count, 2.5)).toBe('Count must be a whole number.');
    expect(elicitFieldProblem(count, 0)).toBe('Count must be at least 1.');
    expect(elicitFieldProblem(count, 6)).toBe('Count must be at most 5.');
    expect(elicitFieldProblem(count, Number.NaN)).toBe('Count must be a number.');
    expect(elicitFieldProblem(count, 5)).toBeNull();
  });

  it('takes only offered choices, within how many may be chosen', () => {
    const options = [
      { value: 'a', label: 'Alpha' },
      { value: 'b', label: 'Beta' },
    ];
    const one: ElicitField = { ...base, name: 'one', label: 'One', kind: 'choice', options };
    const some: ElicitField = {
      ...base,
      name: 'some',
      label: 'Some',
      kind: 'choices',
      options,
      min_items: 1,
      max_items: 1,
    };
    expect(elicitFieldProblem(one, 'c')).toBe('One must be one of: Alpha, Beta.');
    expect(elicitFieldProblem(some, ['a', 'c'])).toBe('Some must be chosen from: Alpha, Beta.');
    expect(elicitFieldProblem(some, ['a', 'b'])).toBe('Some: choose at most 1.');
    expect(elicitFieldProblem(some, ['b'])).toBeNull();
  });

  it('needs the required fields and leaves blank optional ones alone', () => {
    const fields: ElicitField[] = [
      text({ name: 'name', label: 'Name', required: true }),
      text({ name: 'note', label: 'Note' }),
      { ...base, name: 'ok', label: 'OK', kind: 'boolean', required: true },
    ];
    expect(elicitProblems(fields, {})).toEqual({ name: 'Name is required.', ok: 'OK is required.' });
    expect(elicitProblems(fields, { name: 'x', ok: false })).toEqual({});
    expect(elicitProblems(fields, { name: 'x', ok: 'yes' })).toEqual({ ok: 'OK must be yes or no.' });
  });
});
