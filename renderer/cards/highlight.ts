import type { HighlighterCore, LanguageRegistration } from 'shiki/core';
import { readableColour } from './readable-colours.ts';

// Syntax highlighting, loaded only when a card first needs it. Shiki runs on its JavaScript regex
// engine: the Oniguruma engine is WebAssembly, which the panel's CSP (`script-src 'self'`) refuses.
// Only the languages below are bundled, each as its own chunk fetched on first use. The themes are
// GitHub's accessible defaults, each colour made to read at 4.5:1 on the panel's code backgrounds
// (readable-colours.ts).

type LanguageModule = { default: LanguageRegistration[] };

const LANGUAGES: Record<string, () => Promise<LanguageModule>> = {
  typescript: () => import('shiki/langs/typescript.mjs'),
  tsx: () => import('shiki/langs/tsx.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  jsx: () => import('shiki/langs/jsx.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  ruby: () => import('shiki/langs/ruby.mjs'),
  swift: () => import('shiki/langs/swift.mjs'),
  rust: () => import('shiki/langs/rust.mjs'),
  go: () => import('shiki/langs/go.mjs'),
  c: () => import('shiki/langs/c.mjs'),
  cpp: () => import('shiki/langs/cpp.mjs'),
  java: () => import('shiki/langs/java.mjs'),
  shellscript: () => import('shiki/langs/shellscript.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
  yaml: () => import('shiki/langs/yaml.mjs'),
  toml: () => import('shiki/langs/toml.mjs'),
  xml: () => import('shiki/langs/xml.mjs'),
  sql: () => import('shiki/langs/sql.mjs'),
  diff: () => import('shiki/langs/diff.mjs'),
};

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'jsx',
  json: 'json',
  jsonl: 'json',
  py: 'python',
  rb: 'ruby',
  swift: 'swift',
  rs: 'rust',
  go: 'go',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  java: 'java',
  sh: 'shellscript',
  bash: 'shellscript',
  zsh: 'shellscript',
  html: 'html',
  htm: 'html',
  css: 'css',
  md: 'markdown',
  markdown: 'markdown',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'toml',
  xml: 'xml',
  svg: 'xml',
  plist: 'xml',
  sql: 'sql',
  diff: 'diff',
  patch: 'diff',
};

/** The highlighting language for a file name, or null for plain text. */
export function languageFor(fileName: string): string | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  return EXTENSIONS[fileName.slice(dot + 1).toLowerCase()] ?? null;
}

const FENCE_ALIASES: Record<string, string> = { shell: 'shellscript', console: 'shellscript', js: 'javascript' };

/** The highlighting language for a Markdown fence's tag (`ts`, `typescript`, `sh`), or null for plain text. */
export function languageForFence(tag: string): string | null {
  const name = tag.toLowerCase();
  if (LANGUAGES[name]) return name;
  return FENCE_ALIASES[name] ?? EXTENSIONS[name] ?? null;
}

/** A run of one colour: its text, and its colours for both themes as `--shiki-light/dark`. */
export interface HighlightToken {
  content: string;
  htmlStyle?: Record<string, string>;
}

/** Highlighted tokens, line by line. */
export type HighlightedLines = HighlightToken[][];

/** How long one line may take to tokenize before the rest of it is left plain. */
export const TOKENIZE_LINE_MS = 10_000;

function readableToken(token: HighlightToken): HighlightToken {
  const style = token.htmlStyle;
  if (!style) return { content: token.content };
  const light = style['--shiki-light'];
  const dark = style['--shiki-dark'];
  return {
    content: token.content,
    htmlStyle: {
      ...style,
      ...(light ? { '--shiki-light': readableColour(light, 'light') } : {}),
      ...(dark ? { '--shiki-dark': readableColour(dark, 'dark') } : {}),
    },
  };
}

let highlighter: Promise<HighlighterCore> | null = null;
const loaded = new Map<string, Promise<void>>();

function loadHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
    ]);
    return createHighlighterCore({
      themes: [import('shiki/themes/github-light-default.mjs'), import('shiki/themes/github-dark-default.mjs')],
      langs: [],
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
  })();
  return highlighter;
}

/**
 * A few lines of the shapes most languages share (a comment, a declaration, a call, a string, a
 * number): tokenizing them compiles the patterns a first real block would otherwise wait for.
 */
const WARM_SAMPLE = [
  '// comment',
  'export function name(value: number): string {',
  '  const text = "text" + value.toString(10); return `${text}`;',
  '}',
].join('\n');

/**
 * Loads the highlighter and its themes ahead of the first card that needs them, and each of
 * `languages` with its patterns compiled, so that card's colours need only its own tokens.
 */
export async function prepareHighlighter(languages: readonly string[] = []): Promise<void> {
  await loadHighlighter().catch(() => undefined);
  for (const language of languages) await highlight(WARM_SAMPLE, language);
}

/** Loads the highlighter and `language` (once); rejects when either cannot load. */
export async function loadLanguage(language: string): Promise<HighlighterCore> {
  const load = LANGUAGES[language];
  if (!load) throw new Error(`No grammar for ${language}`);
  const core = await loadHighlighter();
  let ready = loaded.get(language);
  if (!ready) {
    ready = load().then((module) => core.loadLanguage(...module.default));
    loaded.set(language, ready);
  }
  await ready;
  return core;
}

/** Tokens for `code`, or null when the language is unknown or highlighting fails (plain text stays). */
export async function highlight(code: string, language: string): Promise<HighlightedLines | null> {
  if (!LANGUAGES[language]) return null;
  try {
    const core = await loadLanguage(language);
    const { tokens } = core.codeToTokens(code, {
      lang: language,
      themes: { light: 'github-light-default', dark: 'github-dark-default' },
      defaultColor: false,
      // A line that takes longer than this is left unfinished, the rest of it in one colour: the
      // first lines of a language wait for its patterns to compile (seconds on a busy machine),
      // and shiki's half a second drew them in the wrong colours. The worker can afford the wait.
      tokenizeTimeLimit: TOKENIZE_LINE_MS,
    });
    return tokens.map((line) => line.map(readableToken));
  } catch {
    return null;
  }
}
