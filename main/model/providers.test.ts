import { describe, expect, it } from 'vitest';
import { KEYED_PROVIDERS, MODEL_ID_FORMS, modelIdParts, PROVIDERS } from '../../protocol/providers.ts';
import { IMAGE_TOKENS, imageTokensFor } from './token-estimate.ts';
import { MODEL_PROVIDER_LIST, MODEL_PROVIDERS, modelProviderOf, parseModelId } from './providers.ts';

// Each provider is one record: what protocol/providers.ts declares, which the panel sees, and
// main's Node parts. What the model layer knows of a provider is read from it.

/** An id of each form, as `idForm` writes it. */
function sampleId(form: string): string {
  return form.replace('<baseURL>', 'http://127.0.0.1:8080/v1').replace('<model>', 'some-model');
}

describe('the provider records', () => {
  it('extend the declared providers one to one, in their order, with the same names and keys', () => {
    expect(MODEL_PROVIDER_LIST.map((provider) => provider.id)).toEqual(PROVIDERS.map((provider) => provider.id));
    for (const declared of PROVIDERS) expect(MODEL_PROVIDERS[declared.id]).toMatchObject(declared);
  });

  it('read each id form back to its own provider', () => {
    for (const provider of MODEL_PROVIDER_LIST) {
      const parsed = parseModelId(sampleId(provider.idForm));
      expect(parsed).toMatchObject({ ok: true, spec: { family: provider.id, model: 'some-model' } });
      expect(modelProviderOf(sampleId(provider.idForm))).toBe(provider);
      expect(modelIdParts(sampleId(provider.idForm))).toMatchObject({
        provider: { id: provider.id },
        model: 'some-model',
      });
    }
    expect(parseModelId('mistral:large')).toEqual({
      ok: false,
      error: `Unknown model id "mistral:large": use ${MODEL_ID_FORMS}.`,
    });
  });

  it('name a key variable for every provider that needs a key, and an address for every one whose id names none', () => {
    expect(KEYED_PROVIDERS.length).toBeGreaterThan(0);
    for (const provider of MODEL_PROVIDER_LIST) {
      if (provider.needsKey) expect(provider.keyVariable).toMatch(/^[A-Z][A-Z0-9_]*$/);
      if (!provider.idForm.includes('<baseURL>')) expect(provider.baseURL?.fallback).toMatch(/^https:\/\//);
    }
  });

  it('give the estimate each provider’s image costs, and the most of them for an id of none', () => {
    for (const provider of MODEL_PROVIDER_LIST) {
      expect(IMAGE_TOKENS[provider.id]).toBe(provider.imageTokens);
      expect(imageTokensFor(sampleId(provider.idForm))).toBe(provider.imageTokens);
    }
    const most = Math.max(...MODEL_PROVIDER_LIST.map((provider) => provider.imageTokens.user));
    expect(imageTokensFor('demo').user).toBe(most);
  });
});
