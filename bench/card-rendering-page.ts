// The in-page halves of bench/card-rendering.ts, as source text: they run in Chromium, where the
// DOM is, and this project type-checks bench/ for Node. Each is an async function expression.

export interface Mounted {
  /** From the click (or the insertion) to the first frame after it, in ms. */
  paint: number;
  /** The longest task from the click until the colours have had time to arrive, in ms (0: none over 50 ms). */
  longest: number;
  /** Elements in the card (or the <pre>) once drawn. */
  nodes: number;
}

export interface Opened {
  /** From the click on the group's header to the first frame after it, in ms. */
  paint: number;
  /** The longest task from the click until the colours arrived (0: none over 50 ms). */
  longest: number;
  /** Elements in the group once drawn, and how many of its cards are in the DOM. */
  nodes: number;
  cards: number;
  /** From the first frame to the moment every code line on screen is coloured, in ms. */
  coloured: number;
  /** Then Page Down card by card through the first `steps` cards: the longest task meanwhile (0: none over 50 ms), */
  walkLongest: number;
  /** the most cards in the DOM at once, */
  walkCards: number;
  /** and, for each card the focus reached, how long its lines waited for their colours: the median and the worst. */
  walkColourMedian: number;
  walkColourWorst: number;
  steps: number;
}

export interface Scrolled {
  p95: number;
  longest: number;
  frames: number;
  distance: number;
}

/**
 * `{ card: callId }` expands that card ("Show all…" / "Show the whole diff"), measures, then folds it;
 * `{ pre: text }` shows the text as one plain <pre> in a layer over the panel, measures, removes it.
 */
export const MOUNT_SCRIPT = `async (target) => {
  const tasks = [];
  const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) tasks.push(entry); });
  observer.observe({ type: 'longtask' });
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  let element;
  let fold;
  let start;
  let paint;
  if (target.card) {
    const selector = '[data-call-id="' + target.card + '"]';
    // The virtualised list may draw the card's row again at any time (it re-measures rows as they
    // come into view), so every step looks the card up again instead of keeping an element.
    const card = () => document.querySelector(selector);
    const opener = () =>
      [...(card()?.querySelectorAll('button') ?? [])].find((b) => /^Show (all|the whole)/.test(b.textContent));
    const folder = () => card()?.querySelector('[data-testid="show-fewer-top"]');
    // The list keeps only the rows near the view, and a fold at the bottom lets it follow the end
    // again: a card out of the DOM is brought back by stopping the following (an upward wheel, as a
    // person's) and sweeping the scroller down from the top, half a view a frame, until its row is drawn.
    const scroller = () => document.querySelector('.transcript-scroller');
    let sweep = 0;
    const reveal = () => {
      const box = scroller();
      if (!box) return;
      box.dispatchEvent(new WheelEvent('wheel', { deltaY: -1, bubbles: true }));
      if (sweep > box.scrollHeight - box.clientHeight) sweep = 0;
      box.scrollTop = sweep;
      sweep += Math.max(100, box.clientHeight / 2);
    };
    // Waits frame by frame for the test to hold (20 s at most, for a loaded machine).
    const until = async (what, test) => {
      const deadline = performance.now() + 20000;
      while (performance.now() < deadline) {
        const found = test();
        if (found) return found;
        if (!card()) reveal();
        await frame();
      }
      const buttons = [...(card()?.querySelectorAll('button') ?? [])].map((b) => b.textContent);
      throw new Error(what + ' (the card ' + (card() ? 'has the buttons ' + JSON.stringify(buttons) : 'is not in the DOM') + ')');
    };
    await until('the card ' + target.card + ' is not in the DOM', card);
    // An expansion is remembered: one left open (a fold that missed its row) is folded first.
    if (!opener() && folder()) {
      folder().click();
      await until('the card did not fold', opener);
    }
    await until('the card has no "Show all…" / "Show the whole…" button', opener);
    (await until('the card ' + target.card + ' is not in the DOM', card)).scrollIntoView();
    await frame();
    await until('the card has no "Show all…" / "Show the whole…" button after scrolling to it', opener);
    start = performance.now();
    opener().click();
    await frame();
    paint = performance.now() - start;
    // The expanded card grows, and the list may drop its row (a sweep that reached the bottom
    // follows the end again): wait for the expansion to show, bringing the row back if it left.
    element = await until('the click on "Show all…" did not expand the card ' + target.card, () => folder() && card());
    // Folded again for the next run (a row the list dropped meanwhile is folded at its start).
    fold = async () => {
      folder()?.click();
      await until('the card did not fold after the measurement', () => !card() || opener());
    };
  } else {
    // Over the panel, not in the virtualised list, so the list's rows stay as they were.
    start = performance.now();
    const layer = document.createElement('div');
    layer.style.cssText = 'position:fixed;inset:0;overflow:auto;background:white;z-index:99';
    element = document.createElement('pre');
    element.textContent = target.pre;
    layer.append(element);
    document.body.append(layer);
    await frame();
    paint = performance.now() - start;
    fold = () => layer.remove();
  }
  const nodes = element.querySelectorAll('*').length + 1;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  observer.disconnect();
  await fold();
  await frame();
  const durations = tasks.filter((task) => task.startTime + task.duration >= start).map((task) => task.duration);
  return { paint, longest: durations.length ? Math.max(...durations) : 0, nodes };
}`;

/**
 * Opens the read group whose first call is `first`, scrolled to its top, and measures it; then moves
 * through its first `steps` cards with Page Down (each press once the focus reached the card before);
 * folds it again.
 */
export const OPEN_GROUP_SCRIPT = `async (first, steps) => {
  // A line is coloured by a span per token, or by ranges over its text in the page's token highlights.
  const paintedTexts = () => {
    const nodes = new Set();
    globalThis.CSS?.highlights?.forEach((highlight, name) => {
      if (name.startsWith('tc')) highlight.forEach((range) => nodes.add(range.startContainer));
    });
    return nodes;
  };
  // One node's look-up stops at its first range: the check itself stays out of the tasks measured.
  const painted = (node) => {
    if (!node || !globalThis.CSS?.highlights) return false;
    for (const [name, highlight] of CSS.highlights) {
      if (!name.startsWith('tc')) continue;
      for (const range of highlight) if (range.startContainer === node) return true;
    }
    return false;
  };
  const lineColoured = (line, painted) => {
    const text = line.querySelector('.line-text');
    return text !== null && (text.querySelector('span:is([class^="tk"], [style])') !== null || painted.has(text.firstChild));
  };
  const tasks = [];
  const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) tasks.push(entry); });
  observer.observe({ type: 'longtask' });
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const box = document.querySelector('.transcript-scroller');
  // The list keeps only the rows near the view: sweep it from the top until the group's row is drawn.
  box.dispatchEvent(new WheelEvent('wheel', { deltaY: -1, bubbles: true }));
  const group = () => document.querySelector('[data-row-key="group:' + first + '"] [data-testid="read-group"]');
  // Older pages load as the top is reached; a group begun on one of them is whole once it has.
  const seek = performance.now() + 20000;
  for (let top = 0; !group(); top += box.clientHeight / 2) {
    if (performance.now() > seek)
      throw new Error('no read group of ' + first + ' in the transcript after 20 s (rows: ' + [...document.querySelectorAll('[data-row-key]')].map((row) => row.dataset.rowKey).join(', ') + ')');
    if (top > box.scrollHeight) top = 0;
    box.scrollTop = top;
    const older = document.querySelector('[data-testid="older-events"]');
    if (older && !older.disabled) older.click();
    await frame();
  }
  const toggle = group().querySelector('[data-testid="read-group-toggle"]');
  group().scrollIntoView({ block: 'start' });
  await frame();
  const start = performance.now();
  toggle.click();
  await frame();
  const paint = performance.now() - start;
  const scroller = box.getBoundingClientRect();
  const onScreen = () =>
    [...group().querySelectorAll('.code-line')].filter((line) => {
      const box = line.getBoundingClientRect();
      return box.bottom > scroller.top && box.top < scroller.bottom;
    });
  const coloured = () => {
    const lines = onScreen();
    const painted = paintedTexts();
    return lines.length > 0 && lines.every((line) => lineColoured(line, painted));
  };
  const deadline = performance.now() + 20000;
  while (!coloured()) {
    if (performance.now() > deadline) throw new Error('the lines on screen had no colours after 20 s');
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  const colouredAt = performance.now() - start - paint;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const nodes = group().querySelectorAll('*').length + 1;
  const cards = group().querySelectorAll('[data-testid="tool-card"]').length;
  const opened = tasks.filter((task) => task.startTime + task.duration >= start).map((task) => task.duration);

  const walkStart = performance.now();
  const cardAt = (place) => group().querySelector('[data-testid="tool-card"][aria-posinset="' + place + '"]');
  const focusedPlace = () => document.activeElement?.closest('[data-testid="tool-card"]')?.getAttribute('aria-posinset');
  const wait = async (what, test) => {
    const until = performance.now() + 20000;
    while (!test()) {
      if (performance.now() > until) throw new Error(what + ' after 20 s');
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  };
  // From the group's first card drawn, its top in view again.
  group().scrollIntoView({ block: 'start' });
  await frame();
  const from = group().querySelector('[data-testid="tool-card"][aria-posinset]');
  from.focus();
  const origin = Number(from.getAttribute('aria-posinset'));
  let walkCards = 0;
  const waits = [];
  const last = Math.min(origin + steps - 1, Number(from.getAttribute('aria-setsize')));
  for (let place = origin + 1; place <= last; place += 1) {
    document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageDown', bubbles: true, cancelable: true }));
    await wait('Page Down did not bring the focus to card ' + place, () => focusedPlace() === String(place));
    const shown = performance.now();
    await wait('card ' + place + ' had no colours', () => {
      const line = cardAt(place)?.querySelector('.code-line');
      return line && lineColoured(line, { has: (node) => painted(node) });
    });
    waits.push(performance.now() - shown);
    walkCards = Math.max(walkCards, group().querySelectorAll('[data-testid="tool-card"]').length);
  }
  await frame();
  observer.disconnect();
  const walked = tasks.filter((task) => task.startTime + task.duration >= walkStart).map((task) => task.duration);
  toggle.click();
  await frame();
  waits.sort((a, b) => a - b);
  return {
    paint,
    longest: opened.length ? Math.max(...opened) : 0,
    nodes,
    cards,
    coloured: colouredAt,
    walkLongest: walked.length ? Math.max(...walked) : 0,
    walkCards,
    walkColourMedian: waits[Math.floor(waits.length / 2)] ?? 0,
    walkColourWorst: waits.at(-1) ?? 0,
    steps: last - origin + 1,
  };
}`;

/**
 * The baseline of the group's walk: in a layer over the panel, each of `texts` in turn is added as a
 * plain <pre> below the last (three kept), focused (which scrolls it into view) and given a frame,
 * as a list drawing cards near the view would at its least; the longest task meanwhile (0: none over 50 ms).
 */
export const PAGE_PLAIN_SCRIPT = `async (texts) => {
  const tasks = [];
  const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) tasks.push(entry.duration); });
  observer.observe({ type: 'longtask' });
  const layer = document.createElement('div');
  layer.style.cssText = 'position:fixed;inset:0;overflow:auto;background:white;z-index:99';
  document.body.append(layer);
  const start = performance.now();
  for (const text of texts) {
    const pre = document.createElement('pre');
    pre.tabIndex = -1;
    pre.textContent = text;
    layer.append(pre);
    if (layer.children.length > 3) layer.firstElementChild.remove();
    pre.focus();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  observer.disconnect();
  layer.remove();
  return { longest: tasks.length ? Math.max(...tasks) : 0, steps: texts.length, took: performance.now() - start };
}`;

/** Scrolls the element up by `step` px a frame from its end, for `frames` frames; frame times and long tasks. */
export const SCROLL_SCRIPT = `async (selector, frames, step) => {
  const box = document.querySelector(selector);
  box.scrollTop = box.scrollHeight;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const tasks = [];
  const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) tasks.push(entry.duration); });
  observer.observe({ type: 'longtask' });
  const times = [];
  let distance = 0;
  for (let index = 0; index < frames; index += 1) {
    const before = box.scrollTop;
    box.scrollTop = before - step;
    distance += before - box.scrollTop;
    times.push(await new Promise((resolve) => requestAnimationFrame(resolve)));
  }
  observer.disconnect();
  const deltas = times.slice(1).map((time, index) => time - times[index]).sort((a, b) => a - b);
  const p95 = deltas[Math.floor(deltas.length * 0.95)] || 0;
  return { p95, longest: tasks.length ? Math.max(...tasks) : 0, frames, distance: Math.round(distance) };
}`;

/** Fills #static with `count` plain cards like the session's: a header and a few lines of output. */
export const STATIC_CARDS_SCRIPT = `async (count) => {
  const box = document.getElementById('static');
  const parts = [];
  for (let index = 0; index < count; index += 1) {
    const name = 'echo call-' + String(index).padStart(5, '0');
    parts.push('<article style="border:1px solid #ccc;margin:8px;border-radius:6px"><header><b>exec</b> ' + name +
      '</header><pre>' + name + '\\n' + 'output line of a long session\\n'.repeat(3) + '</pre></article>');
  }
  box.innerHTML = parts.join('');
}`;
