import { createRequire } from 'node:module';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';

// axe-core for the specs. The panel's page has no frames, so axe runs in the page itself
// (AxeBuilder's legacy mode, axe.run on the document: the same rules on the same elements) rather
// than in each frame with the results put together in a blank page that each run opened, a new
// renderer every time. And AxeBuilder sent axe's 1.3 MB source to the page twice per run: here it
// goes once per document.

/** The axe-core that @axe-core/playwright itself uses. */
const axeSource = (createRequire(import.meta.resolve('@axe-core/playwright'))('axe-core') as { source: string }).source;

/** What AxeBuilder evaluates in place of axe's source, once the page holds axe: nothing. */
const ALREADY_LOADED = ';';

/** An AxeBuilder for the page as it is now, axe loaded into it when it is not already. */
export async function axeOn(page: Page): Promise<AxeBuilder> {
  if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(axeSource);
  return new AxeBuilder({ page, axeSource: ALREADY_LOADED }).setLegacyMode();
}
