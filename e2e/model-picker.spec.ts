import { expect, test } from './panel-fixture.ts';

// A model picked by typing its id: a compat: id against the fixture server, which lists its models
// in GET /v1/models (offered as suggestions while its address is typed), is selected and the next
// message goes to it; an id whose server is down is
// refused beside the picker, and the model selected before stays. The picker labels each model by
// its name first, so a narrow panel still tells them apart; the footer keeps no copy of it. At
// 1280, 420 and 360 px.

for (const width of [1280, 420, 360]) {
  test(`a typed compat: model id is used end to end, a refused one says why at ${width} px`, async ({ panel }) => {
    const { page } = panel;
    await page.setViewportSize({ width, height: 800 });
    panel.script({
      models: [{ id: 'scripted' }, { id: 'other', context_window: 32_000 }, { id: 'third' }],
      steps: [{ text: ['Answered by the other model.'] }],
    });
    const picker = page.getByTestId('model-picker');
    const typed = `compat:${panel.model.baseURL}#other`;

    // A server that is not there: the switch is refused with the reason, nothing changes.
    const before = `compat:${panel.model.baseURL}#scripted`;
    await expect(picker).toHaveValue(before);
    await picker.selectOption({ label: 'Other model…' });
    const input = page.getByTestId('model-id-input');
    await expect(input).toBeFocused();
    await input.fill('compat:http://127.0.0.1:9/v1#nothing');
    await input.press('Enter');
    await expect(page.getByTestId('model-error')).toContainText(
      'Cannot reach the model server at http://127.0.0.1:9/v1/models',
    );
    await expect(picker).toHaveValue(before);
    await expect(page.getByTestId('model-error')).toBeInViewport();
    await panel.shot(`model-picker-refused-${width}`);

    // Typing a server's address lists what it offers as suggestions for the field.
    await input.fill(`compat:${panel.model.baseURL}`);
    await expect(page.getByTestId('server-models-status')).toHaveText('3 models on this server');
    await expect(page.getByTestId('server-models').locator('option')).toHaveCount(3);
    await expect(page.getByTestId('server-models').locator(`option[value="${typed}"]`)).toHaveText(
      'other (32,000 tokens)',
    );
    await input.fill(typed);
    await input.press('Enter');
    await expect(picker).toHaveValue(typed);
    // The picker itself now offers the server's other model too.
    await expect(picker.locator(`option[value="compat:${panel.model.baseURL}#third"]`)).toHaveCount(1);
    await expect(page.getByTestId('model-error')).toHaveCount(0);
    // Named by what tells it from the server's other models, which a narrow picker does not cut.
    const host = new URL(panel.model.baseURL).host;
    await expect(picker.locator('option:checked')).toHaveText(`other · ${host}`);
    await expect(picker.locator(`option[value="compat:${panel.model.baseURL}#third"]`)).toHaveText(`third · ${host}`);
    await expect(page.getByTestId('footer')).not.toContainText('compat:');
    // The closed picker has room for the model's name, the start of its label, at every width.
    const nameFits = await picker.evaluate((select: HTMLSelectElement) => {
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.textContent = 'other ·';
      document.body.append(probe);
      const width = probe.getBoundingClientRect().width;
      probe.remove();
      return width < select.clientWidth - 24;
    });
    expect(nameFits).toBe(true);
    await panel.shot(`model-picker-chosen-${width}`);

    await panel.send('Who answers?');
    await expect(page.getByText('Answered by the other model.')).toBeVisible();
    const last = panel.model.requests.at(-1);
    expect(last?.body.model).toBe('other');
    await page.getByTestId('context-meter').click();
    await expect(page.getByTestId('status-window')).toHaveText('32,000 tokens');
  });
}
