import { useState } from 'react';
import type { Result } from '../../protocol/api.ts';
import type { McpResourceEcho } from '../../protocol/echo.ts';
import { formatBytes } from '../../protocol/format.ts';
import { useActions } from '../actions.ts';
import { SafeText } from '../text/SafeText.tsx';
import { saveBytes } from './save-bytes.ts';

// An MCP result's binary resources and resource links: an image blob as its image, every other
// blob by its name, type, size and URI with Save… (its bytes, kept in the session's folder, become
// a download), and a link by its name, type, size and URI as the server gave them, with Save… that
// reads it from the server.

export function McpResources({
  server,
  resources,
  omitted,
}: {
  server: string;
  resources: readonly McpResourceEcho[];
  omitted: number;
}) {
  return (
    <div className="mcp-resources" data-testid="mcp-resources">
      <ul className="mcp-resource-list" aria-label="Resources of the result">
        {resources.map((resource, index) => (
          <li key={index} className="mcp-resource" data-testid="mcp-resource" data-type={resource.type}>
            <ResourceRow server={server} resource={resource} />
          </li>
        ))}
      </ul>
      {omitted > 0 ? (
        <p className="card-note">
          {omitted} more {omitted === 1 ? 'resource is' : 'resources are'} not listed here; the model got them all.
        </p>
      ) : null}
    </div>
  );
}

function ResourceRow({ server, resource }: { server: string; resource: McpResourceEcho }) {
  const name = resource.name ?? resource.uri;
  const facts = [
    resource.type === 'link' ? 'link' : null,
    resource.mime_type ?? (resource.type === 'blob' ? 'binary' : null),
    resource.bytes !== undefined ? formatBytes(resource.bytes) : null,
  ].filter((fact): fact is string => fact !== null);
  return (
    <>
      {resource.data && resource.mime_type ? (
        <img
          className="mcp-image"
          data-testid="mcp-resource-image"
          alt={`${name} (${facts.join(', ')})`}
          src={`data:${resource.mime_type};base64,${resource.data}`}
        />
      ) : null}
      <div className="mcp-resource-line">
        <span className="mcp-resource-name" data-testid="mcp-resource-name" title={resource.uri}>
          <SafeText text={name} />
        </span>
        <span className="mcp-resource-facts" data-testid="mcp-resource-facts">
          <SafeText text={facts.join(' · ')} />
        </span>
        <SaveButton server={server} resource={resource} name={name} />
      </div>
      {resource.type === 'link' || name !== resource.uri ? (
        <div className="mcp-resource-uri" data-testid="mcp-resource-uri">
          <SafeText text={resource.uri} />
        </div>
      ) : null}
      {resource.description ? (
        <div className="mcp-resource-description">
          <SafeText text={resource.description} />
        </div>
      ) : null}
    </>
  );
}

type Saving = { state: 'idle' } | { state: 'saving' } | { state: 'failed'; error: string };

function SaveButton({ server, resource, name }: { server: string; resource: McpResourceEcho; name: string }) {
  const actions = useActions();
  const [saving, setSaving] = useState<Saving>({ state: 'idle' });
  const { sha256, uri } = resource;
  const fetchBytes: (() => Promise<Result<{ data: string; mime_type?: string }>>) | null =
    resource.type === 'link' ? () => actions.mcpResource(server, uri) : sha256 ? () => actions.toolBlob(sha256) : null;
  if (!fetchBytes) {
    return (
      <span className="card-note" data-testid="mcp-resource-unsaved">
        not kept: its bytes could not be written to the session’s folder
      </span>
    );
  }
  const save = async () => {
    setSaving({ state: 'saving' });
    const fetched = await fetchBytes();
    if (!fetched.ok) {
      setSaving({ state: 'failed', error: fetched.error });
      return;
    }
    const mime = fetched.value.mime_type ?? resource.mime_type ?? 'application/octet-stream';
    saveBytes(fetched.value.data, mime, name);
    setSaving({ state: 'idle' });
  };
  return (
    <>
      <button
        type="button"
        className="button small"
        data-testid="mcp-resource-save"
        aria-label={`Save ${name}…`}
        disabled={saving.state === 'saving'}
        onClick={() => void save()}
      >
        {saving.state === 'saving' ? 'Saving…' : 'Save…'}
      </button>
      {saving.state === 'failed' ? (
        <span className="card-error mcp-resource-error" role="alert" data-testid="mcp-resource-error">
          <SafeText text={saving.error} />
        </span>
      ) : null}
    </>
  );
}
