// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionsContext, type PanelActions } from '../actions.ts';
import { ErrorBanner } from '../banners.tsx';
import { usePanel } from '../store/store.ts';
import { Markdown } from '../transcript/Markdown.tsx';
import { ansiRuns, PLAIN, type AnsiStyle } from './ansi.ts';
import { revealPieces, revealText } from './safe-text.ts';
import { SafeText } from './SafeText.tsx';

afterEach(cleanup);

const actions = new Proxy({}, { get: () => async () => undefined }) as PanelActions;

/** Every character a spoof needs: ESC, BEL, NUL, a bidi override, zero-width ones. */
const SPOOF = 'txt\u202Eexe.txt \u001b[2J\u0007\u0000pass\u200Bword\uFEFF';

describe('revealText', () => {
  it('shows control, bidi and zero-width characters as visible marks', () => {
    expect(revealText(SPOOF)).toBe('txt⟨RLO⟩exe.txt ⟨ESC⟩[2J⟨BEL⟩⟨NUL⟩pass⟨ZWSP⟩word⟨BOM⟩');
  });

  it('keeps tabs, newlines, CRLF and every visible character as they are', () => {
    const plain = 'a\tb\r\nc\nñ 日本 emoji 🙂 Ω';
    expect(revealText(plain)).toBe(plain);
  });

  it('marks a lone CR, DEL, C1 controls, isolates and invisible tag characters', () => {
    expect(revealText('50%\r60%\u007f\u009b\u2066x\u2069\u{E0061}')).toBe('50%⟨CR⟩60%⟨DEL⟩⟨U+009B⟩⟨LRI⟩x⟨PDI⟩⟨TAG a⟩');
  });

  it('keeps the joiners emoji and scripts need, and marks one hidden in ASCII', () => {
    const family = '👩\u200D👩\u200D👧';
    const persian = 'می\u200Cخواهم';
    expect(revealText(family)).toBe(family);
    expect(revealText(persian)).toBe(persian);
    expect(revealText('admin\u200Duser')).toBe('admin⟨ZWJ⟩user');
  });

  it('explains each mark with its code point', () => {
    expect(revealPieces('a\u202Eb')).toEqual([
      { text: 'a' },
      { character: '\u202E', mark: '⟨RLO⟩', title: 'U+202E right-to-left override (bidi)' },
      { text: 'b' },
    ]);
  });
});

describe('ansiRuns', () => {
  const styled = (style: Partial<AnsiStyle>): AnsiStyle => ({ ...PLAIN, ...style });

  it('reads foreground colours and weights, and drops the SGR sequences', () => {
    expect(ansiRuns('\u001b[1;31mfail\u001b[0m ok \u001b[38;5;46mg\u001b[38;2;1;2;3mt\u001b[22;39mx')).toEqual([
      { text: 'fail', style: styled({ bold: true, fg: 1 }) },
      { text: ' ok ', style: PLAIN },
      { text: 'g', style: styled({ fg: 'rgb(0, 255, 0)' }) },
      { text: 't', style: styled({ fg: 'rgb(1, 2, 3)' }) },
      { text: 'x', style: PLAIN },
    ]);
  });

  it('ignores concealed text and background colours, so output cannot hide part of itself', () => {
    expect(ansiRuns('\u001b[8;40;30msecret')).toEqual([{ text: 'secret', style: styled({ fg: 0 }) }]);
  });
});

describe('SafeText', () => {
  it('renders marks as their own elements and no raw control or bidi character', () => {
    const { container } = render(<SafeText text={SPOOF} />);
    expect(container.textContent).toBe('txt⟨RLO⟩exe.txt ⟨ESC⟩[2J⟨BEL⟩⟨NUL⟩pass⟨ZWSP⟩word⟨BOM⟩');
    const marks = container.querySelectorAll('.char-mark');
    expect([...marks].map((mark) => mark.getAttribute('title'))).toContain('U+202E right-to-left override (bidi)');
  });

  it('with ansi, colours SGR runs and shows any other escape sequence as text with ⟨ESC⟩', () => {
    const { container } = render(<SafeText text={'\u001b[32mpassed\u001b[0m \u001b]52;c;aGk=\u0007'} ansi />);
    expect(container.querySelector('.ansi-fg-2')?.textContent).toBe('passed');
    expect(container.textContent).toBe('passed ⟨ESC⟩]52;c;aGk=⟨BEL⟩');
  });
});

describe('Markdown', () => {
  it("shows the assistant's invisible and bidi characters as marks, in prose and in code", () => {
    const { container } = render(
      <ActionsContext.Provider value={actions}>
        <Markdown text={'Open `invoice\u202Efdp.exe` now\u200B.'} />
      </ActionsContext.Provider>,
    );
    expect(container.textContent).toBe('Open invoice⟨RLO⟩fdp.exe now⟨ZWSP⟩.');
    expect(container.querySelector('code .char-mark')?.textContent).toBe('⟨RLO⟩');
  });
});

describe('ErrorBanner', () => {
  it('shows a refused link the model wrote with its bidi override as a mark', () => {
    usePanel
      .getState()
      .showError(
        'Only https: links (and http: to this machine) open outside the panel; http://example.com/\u202Egnp.exe was not opened.',
      );
    const { container } = render(<ErrorBanner />);
    expect(container.textContent).toContain('http://example.com/⟨RLO⟩gnp.exe');
    usePanel.getState().showError(null);
  });
});
