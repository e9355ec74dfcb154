/** The server's answer to an unexpected failure (src/server/app.ts). */
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/app.js';
import { tinyTables } from './tiny-dataset.js';

describe('server errors', () => {
  it('an unexpected failure is a 500 JSON answer and one log line without credentials', async () => {
    const tables = tinyTables();
    const lines: string[] = [];
    const server = await startServer({ dataset: { tables }, port: 0, log: (line) => lines.push(line) });
    try {
      Object.defineProperty(tables, 'outputs', {
        get() {
          throw new Error('storage went away');
        },
      });
      const response = await fetch(new URL('filter/', server.url), { headers: { authorization: 'Basic dXNlcjpodW50ZXIy' } });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ detail: 'A server error occurred.' });
      expect(lines).toEqual(['pkdb serve: GET /api/v1/filter/: storage went away']);
      expect((await fetch(new URL('studies/%E0%A4%A/', server.url))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
