import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT, expect, test } from './panel-fixture.ts';

// The page shows the app's icon in the tab, and a page load asks for nothing the host does not have.

for (const width of [1280, 420]) {
  test(`the page's icon is the app icon and a reload meets no 404 (${width} px)`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.reload();
    await expect(page.getByTestId('composer-input')).toBeVisible();

    const icons = await page
      .locator('link[rel="icon"]')
      .evaluateAll((links) =>
        links.map((link) => ({ href: (link as HTMLLinkElement).href, sizes: link.getAttribute('sizes') })),
      );
    expect(icons.map((icon) => icon.sizes)).toEqual(['32x32', '64x64']);
    for (const icon of icons) {
      const response = await page.request.get(icon.href);
      expect(response.status()).toBe(200);
      expect(response.headers()['content-type']).toBe('image/png');
      const drawn = await readFile(path.join(ROOT, 'build', 'icons', `${icon.sizes}.png`));
      expect(Buffer.compare(await response.body(), drawn)).toBe(0);
    }
    expect(missing).toEqual([]);
  });
}
