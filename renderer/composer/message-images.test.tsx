// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { MessageImages } from './MessageImages.tsx';

// A sent message's images as thumbnails: fetched from the panel by hash (a replayed session has
// only the hash), with a label that says what they are when one cannot be had.

function actionsWith(image: PanelActions['image']): PanelActions {
  return new Proxy({ image } as PanelActions, {
    get: (target, key: string) => target[key as keyof PanelActions] ?? (async () => undefined),
  });
}

afterEach(cleanup);

describe('MessageImages', () => {
  it("shows each image from the panel's copy, labelled with its type and size", async () => {
    const asked: string[] = [];
    const actions = actionsWith(async (sha256) => {
      asked.push(sha256);
      return { media_type: 'image/png', data: 'AAAA' };
    });
    render(
      <ActionsContext.Provider value={actions}>
        <MessageImages images={[{ sha256: '1'.repeat(64), media_type: 'image/png', bytes: 2048 }]} />
      </ActionsContext.Provider>,
    );
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Image, PNG, 2.0 KiB' }).getAttribute('src')).toBe(
        'data:image/png;base64,AAAA',
      ),
    );
    expect(asked).toEqual(['1'.repeat(64)]);
  });

  it('keeps a labelled placeholder when the image cannot be had', async () => {
    render(
      <ActionsContext.Provider value={actionsWith(async () => null)}>
        <MessageImages images={[{ sha256: '2'.repeat(64), media_type: 'image/webp', bytes: 10 }]} />
      </ActionsContext.Provider>,
    );
    expect((await screen.findByRole('img', { name: /Image, WEBP/ })).textContent).toBe('image');
  });
});
