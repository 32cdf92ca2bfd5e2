import { expect, test } from './panel-fixture.ts';

// Links in assistant Markdown, in a panel opened in a browser from the web host: an https link
// opens in a new tab after the page asks, with no handle back to the panel, whether it is clicked,
// middle-clicked or clicked with a modifier; any other scheme never opens. (The desktop app asks with a native dialog and opens the system browser instead,
// which a page cannot drive, so these specs are the web host's only.)

const ANSWER = 'Read the [release notes](https://example.com/notes) or the [old page](http://example.com/old).';

if (process.env['AETHER_E2E_TARGET'] !== 'electron') {
  test('an https link opens in a new tab after the person confirms', async ({ panel }) => {
    const context = panel.page.context();
    await context.route('https://example.com/**', (route) =>
      route.fulfill({ contentType: 'text/plain', body: 'Release notes' }),
    );
    panel.script({ steps: [{ text: [ANSWER] }] });
    await panel.send('Where are the release notes?');
    const link = panel.page.getByTestId('message-assistant').getByRole('link', { name: 'release notes' });
    await expect(link).toBeVisible();

    const asked: string[] = [];
    panel.page.once('dialog', (dialog) => {
      asked.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    const opened = context.waitForEvent('page');
    await link.click();
    const tab = await opened;
    await expect(tab).toHaveURL('https://example.com/notes');
    expect(asked).toEqual(['confirm: Open this link in a new tab?\n\nhttps://example.com/notes']);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await expect(panel.page.getByTestId('error-banner')).toHaveCount(0);
    await tab.close();
  });

  test('a middle click, Ctrl+click or Shift+click asks first and opens nothing when declined', async ({ panel }) => {
    const context = panel.page.context();
    await context.route('https://example.com/**', (route) =>
      route.fulfill({ contentType: 'text/plain', body: 'Release notes' }),
    );
    const tabs: string[] = [];
    context.on('page', (page) => tabs.push(page.url()));
    let accept = false;
    const dialogs: string[] = [];
    panel.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
    panel.script({ steps: [{ text: [ANSWER] }] });
    await panel.send('Where are the release notes?');
    const message = panel.page.getByTestId('message-assistant');
    const notes = message.getByRole('link', { name: 'release notes' });

    await notes.click({ button: 'middle' });
    await notes.click({ modifiers: ['ControlOrMeta'] });
    await notes.click({ modifiers: ['Shift'] });
    await expect.poll(() => dialogs.length).toBe(3);
    // The http link asks nothing and opens nothing, whatever the gesture.
    await message.getByRole('link', { name: 'old page' }).click({ button: 'middle' });
    await message.getByRole('link', { name: 'old page' }).click({ modifiers: ['ControlOrMeta'] });
    await expect(panel.page.getByTestId('error-banner')).toContainText(
      'Only https: links (and http: to this machine) open outside the panel',
    );
    expect(tabs).toEqual([]);

    accept = true;
    const opened = context.waitForEvent('page');
    await notes.click({ button: 'middle' });
    const tab = await opened;
    await expect(tab).toHaveURL('https://example.com/notes');
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(dialogs).toHaveLength(4);
    expect(dialogs.every((text) => text === 'Open this link in a new tab?\n\nhttps://example.com/notes')).toBe(true);
    expect(tabs).toEqual(['https://example.com/notes']);
    await tab.close();
  });

  test('a declined link and a link of another scheme open nothing', async ({ panel }) => {
    const context = panel.page.context();
    const tabs: string[] = [];
    context.on('page', (page) => tabs.push(page.url()));
    const dialogs: string[] = [];
    panel.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    panel.script({ steps: [{ text: [ANSWER] }] });
    await panel.send('Where are the release notes?');
    const message = panel.page.getByTestId('message-assistant');

    await message.getByRole('link', { name: 'release notes' }).click();
    await expect(panel.page.getByTestId('error-banner')).toContainText('The link was not opened.');
    expect(dialogs).toHaveLength(1);

    // The http link asks nothing: the next question is the one the https link asks again.
    await message.getByRole('link', { name: 'old page' }).click();
    await message.getByRole('link', { name: 'release notes' }).click();
    await expect.poll(() => dialogs.length).toBe(2);
    expect(dialogs.every((text) => text.endsWith('https://example.com/notes'))).toBe(true);
    expect(tabs).toEqual([]);
    await expect(panel.page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\//);
  });
}
