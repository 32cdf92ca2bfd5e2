import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { formatBytes } from '../../../protocol/format.ts';
import { ToolError } from '../tool.ts';
import { isPrivateAddress } from './private-addresses.ts';

// One page over HTTPS, hop by hop: each redirect is followed only to https:// and only after the
// caller's check (the gate's net rules for a new host); every connection goes through a lookup that
// refuses private addresses unless the caller allows the host, so a name that resolves to
// 127.0.0.1 or 169.254.169.254 is caught at the address actually dialled, not at an earlier lookup
// a rebinding DNS server could answer differently. The body is read up to a cap, decompressed
// first, so a small gzip cannot grow past it.

export interface HttpsFetchOptions {
  /** Stop. */
  signal: AbortSignal;
  /** How long one request may take, from connecting to its body's end (a redirect's question not counted). */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Certificate authorities trusted instead of Node's own list (a test's local server). */
  ca?: string | Buffer | readonly (string | Buffer)[];
  /** A redirect to `next` may be followed (throws a ToolError saying why not otherwise). */
  checkRedirect(next: URL, from: URL): Promise<void>;
  /** The URL's host may be reached at a private address: an allow rule names it. */
  privateAllowed(url: URL): boolean;
  /** Why a response of this Content-Type is not read (binary), or null to read it. */
  refuseType(contentType: string, url: URL): string | null;
}

export interface FetchedPage {
  /** Where the page came from, after redirects. */
  url: URL;
  redirects: number;
  status: number;
  /** The Content-Type header as sent ('' without one). */
  contentType: string;
  body: Buffer;
  /** The page was longer than maxBytes; body holds its start. */
  cut: boolean;
}

const ERROR_PAGE_BYTES = 64 * 1024;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; AetherCodex web_fetch)',
  accept: 'text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5',
  'accept-encoding': 'gzip, deflate, br',
};

/** The host of a URL without an IPv6 address's brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export async function httpsFetch(start: URL, options: HttpsFetchOptions): Promise<FetchedPage> {
  let url = start;
  for (let redirects = 0; ; redirects += 1) {
    const hop = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
    const response = await get(url, options, hop);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECTS.has(status) && location) {
      response.destroy();
      const next = redirectTarget(location, url);
      if (redirects >= options.maxRedirects)
        throw new ToolError(
          `Stopped after ${options.maxRedirects} redirects: ${url.href} redirects again, to ${next.href}. Fetch the page it should end at directly.`,
        );
      if (next.protocol !== 'https:')
        throw new ToolError(
          `${url.href} redirects to ${next.href}, which is not https://; the redirect was not followed.`,
        );
      await options.checkRedirect(next, url);
      url = next;
      continue;
    }
    const contentType = response.headers['content-type'] ?? '';
    const success = status >= 200 && status < 300;
    const refused = success ? options.refuseType(contentType, url) : null;
    if (refused) {
      response.destroy();
      throw new ToolError(refused);
    }
    // An error page is read only far enough to quote its start.
    const { body, cut } = await readBody(response, success ? options.maxBytes : ERROR_PAGE_BYTES, url, hop, options);
    return { url, redirects, status, contentType, body, cut };
  }
}

function redirectTarget(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new ToolError(`${from.href} redirects to "${location}", which is not a URL.`);
  }
}

function get(url: URL, options: HttpsFetchOptions, hop: AbortSignal): Promise<IncomingMessage> {
  const host = bareHost(url);
  const allowed = options.privateAllowed(url);
  // A literal address is dialled without a lookup: it is judged here.
  if (isIP(host) !== 0 && !allowed && isPrivateAddress(host)) return Promise.reject(privateRefusal(host, host));
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'GET',
        headers: HEADERS,
        agent: false,
        signal: hop,
        lookup: guardedLookup(allowed),
        ...(options.ca ? { ca: options.ca as string | Buffer | (string | Buffer)[] } : {}),
      },
      resolve,
    );
    outgoing.on('error', (error) => reject(fetchError(error, url, hop, options)));
    outgoing.end();
  });
}

class PrivateAddressError extends Error {
  override name = 'PrivateAddressError';
}

function privateRefusal(host: string, address: string): ToolError {
  const at = address === host ? '' : ` (at ${address})`;
  return new ToolError(
    `${host}${at} is a private, loopback or link-local address, which web_fetch does not reach unless an allow rule names the host: ask the person to add net(${host}) to the allow rules in Settings if it should.`,
  );
}

/** dns.lookup that fails for a private address unless the host is allowed one. */
function guardedLookup(allowed: boolean) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const blocked = allowed ? undefined : addresses.find((entry) => isPrivateAddress(entry.address));
      if (blocked) return callback(new PrivateAddressError(privateRefusal(hostname, blocked.address).message), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}

/** A failed request in words a person can act on; a Stop is left to the caller. */
function fetchError(error: Error & { code?: string }, url: URL, hop: AbortSignal, options: HttpsFetchOptions): Error {
  if (options.signal.aborted) return error;
  if (hop.aborted) return timedOut(url, options);
  if (error instanceof PrivateAddressError) return new ToolError(error.message);
  const host = url.host;
  const code = error.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ToolError(`${host} was not found (${code}).`);
  if (code === 'ECONNREFUSED') return new ToolError(`${host} refused the connection.`);
  if (code === 'ECONNRESET') return new ToolError(`${host} closed the connection before answering.`);
  if (/CERT|SELF_SIGNED|ERR_TLS/.test(code))
    return new ToolError(`The certificate of ${host} is not trusted (${code}: ${error.message}); nothing was fetched.`);
  return new ToolError(`Fetching ${url.href} failed: ${error.message}${code ? ` (${code})` : ''}.`);
}

function timedOut(url: URL, options: HttpsFetchOptions): ToolError {
  return new ToolError(
    `${url.host} did not send the page within ${options.timeoutMs / 1000} s; the fetch was stopped.`,
  );
}

/** The decoded body, at most `maxBytes` of it. */
async function readBody(
  response: IncomingMessage,
  maxBytes: number,
  url: URL,
  hop: AbortSignal,
  options: HttpsFetchOptions,
): Promise<{ body: Buffer; cut: boolean }> {
  const stream = decoded(response);
  const chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        cut = true;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (error) {
    if (options.signal.aborted) throw error;
    if (hop.aborted) throw timedOut(url, options);
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^(Z_|ERR__ERROR)/.test(code))
      throw new ToolError(
        `The page from ${url.host} is damaged: its compressed body failed after ${formatBytes(size)}.`,
      );
    throw new ToolError(`The connection to ${url.host} was lost after ${formatBytes(size)} of the page.`);
  } finally {
    response.destroy();
  }
  return { body: Buffer.concat(chunks, size), cut };
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (!decoder) return response;
  return pipeline(response, decoder, () => undefined);
}
