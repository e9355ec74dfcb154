/**
 * What the server takes from a request line and its Host header, and where
 * its links point. Neither the Host header nor the request target is trusted:
 * a malformed one is a 400 (RFC 9112 §3.2: "A server MUST respond with a 400
 * to any HTTP/1.1 request message that … contains more than one Host header
 * field line or a Host header field with an invalid field value"), and links
 * (next/previous pages, the API root, data files) are built from the public
 * base URL the server was configured with or bound to, never from the Host
 * header, so a client cannot make the server hand out links to another host.
 */
import { ApiError } from './errors.js';

const badRequest = (detail: string): ApiError => new ApiError(400, { detail });

/**
 * RFC 3986 `host [":" port]`: an IP literal in brackets or a reg-name/IPv4
 * (unreserved, sub-delims, pct-encoded), with a port of 0-65535 when present.
 */
const HOST_PATTERN = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::(\d{0,5}))?$/;

export function isValidHost(host: string): boolean {
  const m = HOST_PATTERN.exec(host);
  if (!m || (m[1] !== undefined && m[1] !== '' && Number(m[1]) > 65535)) return false;
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/** RFC 3986 `absolute-path`: `/` and pchars (unreserved, pct-encoded, sub-delims, `:`, `@`). */
const PATH_PATTERN = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;

/**
 * The path and query of a request as a URL on a fixed placeholder origin
 * (only `pathname` and `searchParams` are meaningful). Origin-form targets
 * (`/api/v1/…?…`) and absolute-form ones (`http://host/…`, as proxies send)
 * are accepted; anything else, or a bad Host header, is a 400.
 */
export function requestUrl(target: string | undefined, host: string | string[] | undefined): URL {
  if (Array.isArray(host) || (host !== undefined && !isValidHost(host))) throw badRequest('Bad Request: invalid Host header.');
  const raw = target ?? '/';
  let url: URL;
  try {
    url = raw.startsWith('/') ? new URL(`http://localhost${raw}`) : new URL(raw);
  } catch {
    throw badRequest('Bad Request: invalid request target.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !PATH_PATTERN.test(raw.startsWith('/') ? raw.split('?')[0] : url.pathname)) {
    throw badRequest('Bad Request: invalid request target.');
  }
  return new URL(`http://localhost${url.pathname}${url.search}`);
}

/**
 * The public base URL of the server (`--public-url`): http(s), no query,
 * fragment or credentials; a path prefix is kept (a proxy serving the API
 * under `/pkdb/`) and always ends in `/`. Throws a message naming the problem.
 */
export function publicBaseOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`public URL "${text}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`public URL "${text}" must be http or https`);
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(`public URL "${text}" must not have a query, fragment or credentials`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** The base URL of a bound address, e.g. `http://127.0.0.1:8000/` or `http://[::1]:8000/`. */
export function boundBaseOf(address: string, family: string, port: number): URL {
  return new URL(`http://${family === 'IPv6' ? `[${address}]` : address}:${port}/`);
}

/** An absolute public link for a server path and query (`/api/v1/x/?a=1`), under the base's path prefix. */
export function publicLink(base: URL, pathAndQuery: string): URL {
  return new URL(`.${pathAndQuery}`, base);
}
