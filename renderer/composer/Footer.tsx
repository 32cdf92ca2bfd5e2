import { useShallow } from 'zustand/react/shallow';
import { usePanel } from '../store/store.ts';
import { ContextMeter } from './ContextMeter.tsx';
import { CompactButton } from './CompactButton.tsx';
import { sessionName } from '../sessions/session-name.ts';

// One quiet line: effort, tokens used in this session, the context meter and the cost, and which
// session this is. The model is the picker's, above it: a second, narrower copy here only got cut.

const numbers = new Intl.NumberFormat('en');

export function Footer() {
  const { effort, usage, session } = usePanel(
    useShallow((state) => ({
      effort: state.settings?.effort ?? '—',
      usage: state.transcript.usage,
      session: state.session,
    })),
  );
  return (
    <footer className="footer" data-testid="footer">
      <span data-testid="footer-effort" title="Reasoning effort">
        effort {effort}
      </span>
      <span data-testid="footer-tokens" className="footer-tokens" title="Tokens in this session: input / output">
        {numbers.format(usage.input_tokens)} in · {numbers.format(usage.output_tokens)} out
      </span>
      <ContextMeter />
      <span className="card-spacer" />
      <CompactButton />
      <span data-testid="footer-session" className="footer-session" title={session?.id ?? ''}>
        {session ? sessionName(session) : 'New session'}
      </span>
    </footer>
  );
}
