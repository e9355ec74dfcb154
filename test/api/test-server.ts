/** A tiny HTTP server on 127.0.0.1 for client tests: every request is recorded, the handler decides the answer. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  receivedAt: number;
}

export type Handler = (request: RecordedRequest, response: ServerResponse, raw: IncomingMessage) => void;

export interface TestServer {
  /** `http://127.0.0.1:<port>/api/v1/` */
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const url = new URL(raw.url ?? '/', 'http://127.0.0.1');
      const request: RecordedRequest = {
        method: raw.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: raw.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      requests.push(request);
      handler(request, response, raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1/`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** The PK-DB envelope for `items`, page `page` of size `pageSize` (NOTES §1). */
export function envelope(items: unknown[], page: number, pageSize: number, baseUrl: string): unknown {
  const lastPage = Math.max(1, Math.ceil(items.length / pageSize));
  const link = (target: number) => (target >= 1 && target <= lastPage ? `${baseUrl}?page=${target}` : null);
  return {
    current_page: page,
    last_page: lastPage,
    next_page_url: link(page + 1),
    prev_page_url: link(page - 1),
    data: { count: items.length, data: items.slice((page - 1) * pageSize, page * pageSize) },
  };
}
