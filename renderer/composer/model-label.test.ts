import { describe, expect, it } from 'vitest';
import { modelLabel, modelLabels, shortenMiddle } from './model-label.ts';

// The picker names models so that a narrow panel still tells them apart: the name first, cut in
// the middle when long, and a compatible server's address after it.

describe('model labels', () => {
  it('put a compatible model name before its server, which a narrow picker cuts first', () => {
    expect(modelLabel('compat:http://127.0.0.1:43483/v1#scripted')).toBe('scripted · 127.0.0.1:43483');
    expect(modelLabel('compat:http://127.0.0.1:11434/v1')).toBe('127.0.0.1:11434');
  });

  it('drop the provider prefix a name already implies', () => {
    expect(modelLabel('anthropic:claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(modelLabel('openai:gpt-5')).toBe('gpt-5');
    expect(modelLabel('demo')).toBe('demo');
  });

  it('cut a long name in the middle, keeping the end that tells two sizes apart', () => {
    const small = modelLabel('compat:http://127.0.0.1:1234/v1#hf.co/unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF:Q4_K_M');
    const large = modelLabel('compat:http://127.0.0.1:1234/v1#hf.co/unsloth/Qwen3-Coder-30B-A3B-Instruct-GGUF:Q8_0');
    expect(small).toMatch(/^hf\.co.*….*Q4_K_M · 127\.0\.0\.1:1234$/);
    expect(large).toMatch(/….*Q8_0 · /);
    expect(shortenMiddle('x'.repeat(40))).toHaveLength(28);
  });

  it('fall back to the full id for two models that would read the same', () => {
    const labels = modelLabels(['openai:gpt-5', 'compat:http://a.test/v1#gpt-5', 'anthropic:gpt-5']);
    expect(labels.get('openai:gpt-5')).toBe('openai:gpt-5');
    expect(labels.get('anthropic:gpt-5')).toBe('anthropic:gpt-5');
    expect(labels.get('compat:http://a.test/v1#gpt-5')).toBe('gpt-5 · a.test');
  });
});
