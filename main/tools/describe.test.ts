import { describe, expect, it } from 'vitest';
import { describeChecked } from './call-echo.ts';
import { basenameOf, commandSubtitle, pathDescription, workspacePath } from './describe.ts';
import { listDirTool } from './files/list-dir.ts';
import { readFileTool } from './files/read-file.ts';
import { searchFilesTool } from './files/search-files.ts';

// How calls describe themselves for their cards: the basename subtitle, the path relative to
// the workspace as its tooltip, and a command on one line.

describe('call descriptions', () => {
  it('give a file call the basename as subtitle and the workspace-relative path as tooltip', () => {
    expect(pathDescription('Read src/deep/app.ts', 'src/deep/app.ts', '/ws', 'src/deep/app.ts')).toEqual({
      title: 'Read src/deep/app.ts',
      subtitle: 'app.ts',
      detail: 'src/deep/app.ts',
      path: 'src/deep/app.ts',
    });
  });

  it('name an absolute path inside the workspace, or one with dots, relative to it', () => {
    expect(workspacePath('/ws', '/ws/src/./lib/../a.ts')).toBe('src/a.ts');
    expect(workspacePath('/ws', '.')).toBe('.');
  });

  it('keep a path outside the workspace (a spill file) as it was given', () => {
    expect(workspacePath('/ws', '/sessions/s1/tool-output/c1.txt')).toBe('/sessions/s1/tool-output/c1.txt');
  });

  it('take the last segment for the subtitle, ignoring trailing separators and understanding backslashes', () => {
    expect(basenameOf('src/lib/')).toBe('lib');
    expect(basenameOf('C:\\work\\main.swift')).toBe('main.swift');
    expect(basenameOf('README.md')).toBe('README.md');
  });

  it('have no subtitle or path when the call names no path', () => {
    expect(pathDescription('List the workspace', undefined, '/ws', '.')).toEqual({
      title: 'List the workspace',
      subtitle: '',
      detail: '.',
    });
  });

  it('put a command on one line, with the host before it for a remote one', () => {
    expect(commandSubtitle('make\n  && make test')).toBe('make ⏎ && make test');
    expect(commandSubtitle('uptime', 'web1')).toBe('web1: uptime');
  });

  it('give a search its pattern as subtitle, and the folder and glob only when it is not the whole workspace', () => {
    const search = (args: unknown) => describeChecked(searchFilesTool, args, { workspace: '/ws' });
    expect(search({ pattern: 'endpoint', path: '.' })).toEqual({
      title: 'Search the workspace',
      subtitle: '/endpoint/',
      detail: '/endpoint/',
    });
    expect(search({ pattern: 'TODO', ignore_case: true })?.subtitle).toBe('/TODO/i');
    expect(search({ pattern: 'fetch\\(', path: 'src/', glob: '*.ts' })).toEqual({
      title: 'Search src/',
      subtitle: '/fetch\\(/ in src/*.ts',
      detail: '/fetch\\(/ in *.ts',
    });
  });

  it('name the lines a paged read asks for, so two reads of one file tell themselves apart', () => {
    const read = (args: unknown) => describeChecked(readFileTool, args, { workspace: '/ws' });
    expect(read({ path: 'src/data.js' })?.title).toBe('Read src/data.js');
    expect(read({ path: 'src/data.js', offset: 201, limit: 200 })).toMatchObject({
      title: 'Read src/data.js, lines 201–400',
      subtitle: 'data.js',
    });
    expect(read({ path: 'src/data.js', offset: 201 })?.title).toBe('Read src/data.js, from line 201');
  });

  it('name a listing of the workspace in words, not as "."', () => {
    expect(describeChecked(listDirTool, { path: '.' }, { workspace: '/ws' })).toEqual({
      title: 'List the workspace',
      subtitle: '',
      detail: '.',
    });
    expect(describeChecked(listDirTool, { path: 'src' }, { workspace: '/ws' })?.subtitle).toBe('src');
  });
});
