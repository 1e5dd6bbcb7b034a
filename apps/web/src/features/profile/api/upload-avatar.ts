/**
 * POST /upload/avatar (SPEC §7: multipart, one file in the field `file`) with the session token the request client
 * sends. XMLHttpRequest rather than fetch: fetch reports no upload progress. The answer is the /api envelope, so
 * a failure is the same RpcCallError (catalogue code, English and Chinese text) as any other call.
 */
import {
  AVATAR_ACCEPTED_TYPES,
  AVATAR_FIELD,
  AVATAR_MAX_BYTES,
  AVATAR_UPLOAD_PATH,
  ERROR_CATALOGUE,
  ERROR_CODES,
  HTTP_TIMEOUT_MS,
  type TRpcError,
  type TUploadAvatarResult,
} from '@rpc/contract';
import Cookies from 'js-cookie';
import { i18n } from '../../../lib/i18n';
import { RpcCallError, RpcCancelledError, TRANSPORT_ERROR_CODE } from '../../../lib/rpc-client';
import { COOKIE } from '../../../lib/storage-keys';

export type TUploadAvatarOptions = {
  /** 0–100 as the bytes leave */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
};

/** The catalogue error the server would answer for this file, found before sending it; null when it may go. */
export function checkAvatarFile(file: Pick<File, 'size' | 'type'>): RpcCallError | null {
  // The browser's type is only a first filter; the server decides from the bytes.
  if (!(AVATAR_ACCEPTED_TYPES as readonly string[]).includes(file.type))
    return catalogueError(ERROR_CODES.AVATAR_UNSUPPORTED_TYPE);
  if (file.size > AVATAR_MAX_BYTES) return catalogueError(ERROR_CODES.AVATAR_TOO_LARGE);
  if (file.size === 0) return catalogueError(ERROR_CODES.AVATAR_FILE_REQUIRED);
  return null;
}

function catalogueError(code: keyof typeof ERROR_CATALOGUE): RpcCallError {
  const entry = ERROR_CATALOGUE[code];
  return new RpcCallError(AVATAR_UPLOAD_PATH, { code, message: entry.en, messageZh: entry.zh });
}

function transportError(status?: number): RpcCallError {
  return new RpcCallError(
    AVATAR_UPLOAD_PATH,
    {
      code: TRANSPORT_ERROR_CODE,
      message: i18n.t('networkError', { ns: 'errors', lng: 'en' }),
      messageZh: i18n.t('networkError', { ns: 'errors', lng: 'zh' }),
    },
    status,
  );
}

function parseEnvelope(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function uploadAvatar(
  file: Blob,
  opts: TUploadAvatarOptions = {},
): Promise<TUploadAvatarResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', AVATAR_UPLOAD_PATH);
    // The person's avatar: the team header is not sent, the server would ignore it anyway.
    const token = Cookies.get(COOKIE.token);
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.timeout = HTTP_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        opts.onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    const onAbort = () => xhr.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (fn: () => void) => {
      opts.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    xhr.onload = () =>
      settle(() => {
        const body = parseEnvelope(xhr.responseText) as
          { result?: TUploadAvatarResult; error?: TRpcError } | undefined;
        if (body?.error && typeof body.error.code === 'number') {
          reject(
            new RpcCallError(
              AVATAR_UPLOAD_PATH,
              body.error,
              xhr.status >= 200 && xhr.status < 300 ? undefined : xhr.status,
            ),
          );
        } else if (xhr.status < 400 && typeof body?.result?.avatar === 'string') {
          resolve(body.result);
        } else {
          reject(transportError(xhr.status));
        }
      });
    xhr.onerror = () => settle(() => reject(transportError()));
    xhr.ontimeout = () =>
      settle(() => reject(new RpcCancelledError(AVATAR_UPLOAD_PATH, 'timeout')));
    xhr.onabort = () =>
      settle(() => reject(new RpcCancelledError(AVATAR_UPLOAD_PATH, 'cancelled')));
    const form = new FormData();
    form.append(AVATAR_FIELD, file);
    xhr.send(form);
  });
}
