/** HTTP errors of the API: every error answer is JSON `{"detail": ...}` (DRF's exception_handler shape). */

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : `HTTP ${status}`);
  }
}

export const notFound = (): ApiError => new ApiError(404, { detail: 'Not found.' });
export const invalidPage = (): ApiError => new ApiError(404, { detail: 'Invalid page.' });
export const methodNotAllowed = (method: string, allow: string[]): ApiError =>
  new ApiError(405, { detail: `Method "${method}" not allowed.` }, { Allow: allow.join(', ') });
export const badRequest = (fieldErrors: Record<string, string[]>): ApiError => new ApiError(400, fieldErrors);
export const unauthorized = (detail: string): ApiError =>
  new ApiError(401, { detail }, { 'WWW-Authenticate': 'Basic realm="pkdb"' });
export const tooLarge = (limitBytes: number): ApiError =>
  new ApiError(413, { detail: `Request body too large: the limit is ${limitBytes} bytes.` });
export const unsupportedMediaType = (type: string): ApiError =>
  new ApiError(415, { detail: `Unsupported media type "${type}" in request.` });
