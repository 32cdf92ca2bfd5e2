import { portLink } from '../../protocol/links.ts';
import { useActions } from '../actions.ts';

/** A port a process listens on, as a link that opens it in the person's browser (after the link confirmation). */
export function PortLink({ port, testId }: { port: number; testId: string }) {
  const actions = useActions();
  const url = portLink(port);
  return (
    <a
      className="process-port"
      href={url}
      data-testid={testId}
      title={`Open ${url} in your browser`}
      onClick={(event) => {
        event.preventDefault();
        void actions.openLink(url);
      }}
    >
      :{port}
    </a>
  );
}
