/**
 * On-disk response cache, so that an interrupted crawl resumes without
 * refetching finished pages and analyses can be re-run offline.
 *
 * Key: sha256 of the credential scope and `METHOD URL` (the URL requested,
 * without credentials). PK-DB shows each user a different set of studies, so
 * a page fetched with credentials must never be served to another user (or to
 * an anonymous client) from a shared cache folder. The scope (./auth.ts
 * `cacheScope`) is `anonymous`, `user:<name>` or `token:<sha256 of the
 * token>`: passwords and tokens never reach the cache.
 * Value: the response body as received. Writes go to a temporary file that is
 * renamed into place, so a crash never leaves a half-written entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class ResponseCache {
  private ready: Promise<unknown> | undefined;

  /** `scope`: whom the responses were fetched as, from `cacheScope()`. */
  constructor(
    readonly dir: string,
    readonly scope: string = 'anonymous',
  ) {}

  static key(method: string, url: string, scope = 'anonymous'): string {
    return createHash('sha256').update(`${scope}\n${method.toUpperCase()} ${url}`).digest('hex');
  }

  private path(method: string, url: string): string {
    const key = ResponseCache.key(method, url, this.scope);
    // Two-level fan-out keeps directories small for crawls of 10^5 pages.
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(method: string, url: string): Promise<string | undefined> {
    try {
      return await readFile(this.path(method, url), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async set(method: string, url: string, body: string): Promise<void> {
    const target = this.path(method, url);
    const folder = join(target, '..');
    this.ready ??= mkdir(this.dir, { recursive: true });
    await this.ready;
    await mkdir(folder, { recursive: true });
    const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, body);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
