import type { Page } from '@playwright/test';
import { expect, test } from './panel-fixture.ts';

// Images in the composer, in a desktop window and a side panel: a pasted PNG shows as a thumbnail
// that can be removed; one over the size limit is refused with what to do; and a model that does
// not take images (the fixture's OpenAI-compatible one) refuses the message before anything is
// sent, keeping the text and the image.

/** A 1×1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Pastes a file into the message box, as the clipboard does when an image was copied. */
async function paste(page: Page, file: { name: string; type: string; base64?: string; bytes?: number }) {
  await page.getByTestId('composer-input').evaluate((input, { name, type, base64, bytes }) => {
    const data = base64
      ? Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
      : new Uint8Array(bytes ?? 0).fill(0x89);
    const transfer = new DataTransfer();
    transfer.items.add(new File([data], name, { type }));
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, file);
}

for (const width of [1280, 420]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ panel }) => {
      await panel.page.setViewportSize({ width, height: 800 });
    });

    test('a pasted image shows as a thumbnail; a model without images refuses it before sending', async ({ panel }) => {
      const { page } = panel;
      const input = page.getByTestId('composer-input');
      await input.focus();
      await paste(page, { name: 'screen.png', type: 'image/png', base64: PIXEL });
      const thumbnail = page.getByTestId('composer-image');
      await expect(thumbnail).toHaveCount(1);
      await expect(thumbnail.getByRole('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
      await expect(thumbnail.getByRole('img')).toHaveAttribute('alt', /screen\.png/);
      await expect(input).toHaveValue('');
      await panel.shot(`composer-image-thumbnail-${width}`);

      await paste(page, { name: 'huge.png', type: 'image/png', bytes: 3 * 1024 * 1024 });
      const notice = page.getByTestId('composer-notice');
      await expect(notice).toHaveAttribute('role', 'alert');
      await expect(notice).toContainText('"huge.png" is 3.0 MiB; an attached image may be at most 2.5 MiB');
      await expect(thumbnail).toHaveCount(1);
      await paste(page, { name: 'notes.svg', type: 'image/svg+xml', base64: btoa('<svg/>') });
      await expect(notice).toContainText('attach a PNG, JPEG, GIF or WebP image');

      await input.fill('What is on this screen?');
      await input.press('Enter');
      await expect(page.getByTestId('error-banner')).toContainText('does not take images, so the message was not sent');
      await expect(input).toHaveValue('What is on this screen?');
      await expect(thumbnail).toHaveCount(1);
      expect(panel.model.requests).toHaveLength(0);

      await page.getByTestId('composer-image-remove').click();
      await expect(thumbnail).toHaveCount(0);
    });
  });
}
