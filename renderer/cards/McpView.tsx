import { useMemo } from 'react';
import { mcpEchoSchema } from '../../protocol/echo.ts';
import { SafeText } from '../text/SafeText.tsx';
import { parseXmlDocument } from '../xml/parse.ts';
import { decodeEcho } from './echo.ts';
import { TextBody, Unfinished } from './parts.tsx';
import type { CardBodyProps, CardView } from './view.ts';
import { XmlTree } from './XmlTree.tsx';
import { McpResources } from './McpResources.tsx';

// The card of an MCP server's tool: live progress (`3/5 message` lines) while it runs, then the
// result's text — as the readable-XML tree when it is one XML document, since this build does not
// own the tool — its images and audio clips (a player), its binary resources and links
// (McpResources.tsx), and the server's own failure (`isError`) as an error.

function McpBody({ call }: CardBodyProps) {
  const echo = decodeEcho(call.echo, mcpEchoSchema);
  const document = useMemo(() => (echo && !echo.text_cut ? parseXmlDocument(echo.text) : null), [echo]);
  if (call.state === 'running') {
    const live = call.progress?.text;
    return live ? (
      <pre className="generic-content" data-testid="mcp-progress" aria-live="polite">
        <SafeText text={live} />
      </pre>
    ) : null;
  }
  if (!echo) return call.state === 'done' ? <TextBody call={call} /> : <Unfinished call={call} />;
  return (
    <div className={echo.is_error ? 'mcp-result mcp-error' : 'mcp-result'} data-testid="mcp-result">
      {echo.is_error ? <p className="card-note">The MCP server “{echo.server}” reported a failure:</p> : null}
      {document ? (
        <XmlTree document={document} raw={echo.text} />
      ) : (
        <pre className="generic-content" data-testid="mcp-text">
          <SafeText text={echo.text} />
          {echo.text_cut ? '\n…' : ''}
        </pre>
      )}
      {echo.images.map((image, index) => (
        <img
          key={index}
          className="mcp-image"
          data-testid="mcp-image"
          alt={`Image ${index + 1} from ${echo.tool}`}
          src={`data:${image.mime_type};base64,${image.data}`}
        />
      ))}
      {echo.images_omitted > 0 ? (
        <p className="card-note">
          {echo.images_omitted} more {echo.images_omitted === 1 ? 'image is' : 'images are'} too large to show here.
        </p>
      ) : null}
      {(echo.audio ?? []).map((clip, index) => (
        <audio
          key={index}
          className="mcp-audio"
          data-testid="mcp-audio"
          controls
          preload="metadata"
          aria-label={`Audio ${index + 1} from ${echo.tool} (${clip.mime_type})`}
          src={`data:${clip.mime_type};base64,${clip.data}`}
        />
      ))}
      {(echo.audio_omitted ?? 0) > 0 ? (
        <p className="card-note">
          {echo.audio_omitted} more audio {echo.audio_omitted === 1 ? 'clip is' : 'clips are'} too large to play here.
        </p>
      ) : null}
      {echo.resources?.length || echo.resources_omitted ? (
        <McpResources server={echo.server} resources={echo.resources ?? []} omitted={echo.resources_omitted ?? 0} />
      ) : null}
    </div>
  );
}

export const mcpView: CardView = {
  name: 'mcp',
  Body: McpBody,
  isEmpty: () => false,
  stoppable: true,
  titledBySubtitle: true,
};
