/**
 * Avatars on each test database, through the real HTTP routes (inject) with multipart bodies built by hand:
 * POST /upload/avatar stores only the server's WebP re-encoding; the type comes from the bytes; size, pixel bombs,
 * field names and sessions are checked; GET /avatar/:userId serves it with ETag and cache headers; hub_removeAvatar
 * removes the caller's own.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { deflateSync } from 'node:zlib';
import { AVATAR_MAX_BYTES, ERROR_CODES } from '@rpc/contract';
import { userAvatars } from '@rpc/db';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from './helpers/databases';
import { createHarness, randomIp, type THarness } from './helpers/harness';

type TPart = { name: string; filename?: string; type?: string; data: Buffer | string };

/** multipart/form-data as a browser writes it. */
function multipart(parts: TPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----avatar-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.type ? `Content-Type: ${part.type}\r\n` : '';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`,
      ),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A picture with something in it (noise), so re-encoding cannot give back the same bytes by chance. */
function picture(width: number, height: number) {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  });
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG header declaring 50000 × 50000 RGB (7.5 GB decoded) over a few bytes of data. */
function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(50_000, 0);
  header.writeUInt32BE(50_000, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(TEST_DATABASES)('avatars on $name', ({ open }) => {
  let h: THarness;
  let png: Buffer;
  beforeAll(async () => {
    h = await createHarness(open);
    png = await picture(320, 200).png().toBuffer();
  });
  afterAll(async () => {
    await h?.close();
  });

  async function user() {
    const { token } = await h.signUp();
    const profile = await h.call('hub_getUserProfile', {}, { token });
    if (!profile.ok) throw new Error(JSON.stringify(profile.error));
    return { token, id: profile.result.id };
  }

  async function upload(
    token: string | null,
    parts: TPart[],
    extra: { headers?: Record<string, string>; ip?: string } = {},
  ) {
    const body = multipart(parts);
    const res = await h.server.app.inject({
      method: 'POST',
      url: '/upload/avatar',
      remoteAddress: extra.ip ?? randomIp(),
      headers: {
        'content-type': body.contentType,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...extra.headers,
      },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    return {
      res,
      body: res.json<{
        id: null;
        result?: { avatar: string };
        error?: { code: number; messageZh: string };
      }>(),
    };
  }

  const file = (data: Buffer | string, filename = 'me.png', type = 'image/png'): TPart => ({
    name: 'file',
    filename,
    type,
    data,
  });

  function getAvatar(url: string, headers: Record<string, string> = {}) {
    return h.server.app.inject({ method: 'GET', url, headers });
  }

  async function storedRow(userId: string) {
    const [row] = await h.database.db
      .select()
      .from(userAvatars)
      .where(eq(userAvatars.userId, userId));
    return row;
  }

  async function profileAvatar(token: string) {
    const profile = await h.call('hub_getUserProfile', {}, { token });
    if (!profile.ok) throw new Error(JSON.stringify(profile.error));
    return profile.result.avatar;
  }

  it.each([
    ['PNG', 'png', () => picture(320, 200).png().toBuffer()],
    // EXIF with a place and a camera: none of it may survive.
    [
      'JPEG',
      'jpeg',
      () =>
        picture(300, 900)
          .jpeg()
          .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'GPS 48.85,2.35' } })
          .toBuffer(),
    ],
    // Already a 256 × 256 WebP: still decoded and written anew.
    ['WebP', 'webp', () => picture(256, 256).webp({ quality: 90 }).toBuffer()],
  ])('stores a %s re-encoded as a 256×256 WebP and serves only that', async (_, format, make) => {
    const u = await user();
    const uploaded = await make();
    expect((await sharp(uploaded).metadata()).format).toBe(format);

    const { body } = await upload(u.token, [file(uploaded)]);
    expect(body.error).toBeUndefined();
    const url = body.result!.avatar;
    expect(url).toMatch(new RegExp(`^/avatar/${u.id}\\?v=[0-9a-f]{12}$`));
    expect(await profileAvatar(u.token)).toBe(url);

    const res = await getAvatar(url);
    expect(res.statusCode).toBe(200);
    const served = res.rawPayload;
    expect(served.equals(uploaded)).toBe(false);
    expect(served.includes(Buffer.from('SecretCam'))).toBe(false);
    const meta = await sharp(served).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(meta.exif).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers.etag).toBe(`"${sha256(served)}"`);
    expect(url.endsWith(`?v=${sha256(served).slice(0, 12)}`)).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain('sandbox');

    const row = await storedRow(u.id);
    expect(row?.contentType).toBe('image/webp');
    expect(row?.sha256).toBe(sha256(served));
    expect(Buffer.from(row!.image).equals(served)).toBe(true);
  });

  it('replaces the avatar on a second upload with a new version', async () => {
    const u = await user();
    const first = (await upload(u.token, [file(png)])).body.result!.avatar;
    const other = await picture(100, 100).jpeg().toBuffer();
    const second = (await upload(u.token, [file(other, 'b.jpg', 'image/jpeg')])).body.result!
      .avatar;
    expect(second).not.toBe(first);
    expect(await profileAvatar(u.token)).toBe(second);
    // The old version's URL still answers, with the current image, but must be revalidated.
    const stale = await getAvatar(first);
    expect(stale.headers['cache-control']).toBe('public, no-cache');
    expect(stale.headers.etag).toBe(`"${(await storedRow(u.id))!.sha256}"`);
  });

  it('refuses a file over the cap with 11001 and stores nothing', async () => {
    const u = await user();
    // PNG magic then noise: the size is what must stop it, not the content.
    const huge = Buffer.concat([png.subarray(0, 8), randomBytes(AVATAR_MAX_BYTES + 1 - 8)]);
    const { body } = await upload(u.token, [file(huge)]);
    expect(body.error?.code).toBe(ERROR_CODES.AVATAR_TOO_LARGE);
    expect(await storedRow(u.id)).toBeUndefined();
    expect(await profileAvatar(u.token)).toBeNull();
  });

  it('refuses a body declared far over the cap unread and closes the connection', async () => {
    const u = await user();
    const huge = randomBytes(2 * AVATAR_MAX_BYTES + 256 * 1024);
    const { res, body } = await upload(u.token, [file(huge)]);
    expect(body.error?.code).toBe(ERROR_CODES.AVATAR_TOO_LARGE);
    expect(res.headers.connection).toBe('close');
    expect(await storedRow(u.id)).toBeUndefined();
  });

  it.each([
    ['a text file named x.png', 'x.png', 'image/png', () => Buffer.from('just some text\n')],
    [
      'an SVG',
      'logo.svg',
      'image/svg+xml',
      () =>
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
        ),
    ],
    [
      'an SVG named .png',
      'logo.png',
      'image/png',
      () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    ],
    ['a GIF named .jpg', 'cat.jpg', 'image/jpeg', () => picture(20, 20).gif().toBuffer()],
    [
      'HTML',
      'page.webp',
      'image/webp',
      () => Buffer.from('<html><script>alert(1)</script></html>'),
    ],
  ])('refuses %s with 11002 whatever its name and type', async (_, filename, type, make) => {
    const u = await user();
    const { body } = await upload(u.token, [file(await make(), filename, type)]);
    expect(body.error?.code).toBe(ERROR_CODES.AVATAR_UNSUPPORTED_TYPE);
    expect(await storedRow(u.id)).toBeUndefined();
  });

  it('refuses a JPEG whose data is cut short (11003)', async () => {
    const u = await user();
    const jpeg = await picture(400, 400).jpeg().toBuffer();
    const { body } = await upload(u.token, [file(jpeg.subarray(0, 2000), 'a.jpg', 'image/jpeg')]);
    expect(body.error?.code).toBe(ERROR_CODES.AVATAR_INVALID_IMAGE);
  });

  it('refuses a PNG bomb from its header, fast (11004)', async () => {
    const u = await user();
    const started = performance.now();
    const { body } = await upload(u.token, [file(pngBomb())]);
    expect(body.error?.code).toBe(ERROR_CODES.AVATAR_TOO_MANY_PIXELS);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await storedRow(u.id)).toBeUndefined();
  });

  it('ignores the file name: a path trick is stored like any avatar and nothing reaches the disk', async () => {
    const u = await user();
    const before = new Set(readdirSync(tmpdir()));
    const { body } = await upload(u.token, [
      file(png, '../../etc/passwd.png', 'application/octet-stream'),
    ]);
    expect(body.result?.avatar).toMatch(/^\/avatar\//);
    const created = readdirSync(tmpdir()).filter(
      (name) => !before.has(name) && (name.endsWith('.png') || name.includes('passwd')),
    );
    expect(created).toEqual([]);
    expect(body.result?.avatar).not.toContain('passwd');
  });

  it.each([
    ['no file at all', [{ name: 'note', data: 'hello' }]],
    ['a text field named file', [{ name: 'file', data: 'not a file' }]],
    [
      'the file under another name',
      [{ name: 'avatar', filename: 'a.png', type: 'image/png', data: 'PNG' }],
    ],
    ['an empty file', [{ name: 'file', filename: 'a.png', type: 'image/png', data: '' }]],
  ] as Array<[string, TPart[]]>)('answers 11005 for %s', async (_, parts) => {
    const u = await user();
    const { body } = await upload(u.token, parts);
    expect(body.error?.code).toBe(ERROR_CODES.AVATAR_FILE_REQUIRED);
    expect(await storedRow(u.id)).toBeUndefined();
  });

  it('answers 11005 for two files and keeps neither', async () => {
    const u = await user();
    const { body } = await upload(u.token, [file(png, 'a.png'), file(png, 'b.png')]);
    expect(body.error?.code).toBe(ERROR_CODES.AVATAR_FILE_REQUIRED);
    expect(await storedRow(u.id)).toBeUndefined();
    expect(await profileAvatar(u.token)).toBeNull();
  });

  it('refuses a body that is not multipart (10006)', async () => {
    const u = await user();
    const res = await h.server.app.inject({
      method: 'POST',
      url: '/upload/avatar',
      remoteAddress: randomIp(),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${u.token}` },
      payload: JSON.stringify({ file: png.toString('base64') }),
    });
    expect(res.json<{ error: { code: number } }>().error.code).toBe(
      ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
    );
  });

  it.each([
    ['no token', null],
    ['a made-up token', 'x'.repeat(43)],
    ['a malformed token', 'not a token!'],
  ])('refuses %s with 10101 and stores nothing', async (_, token) => {
    const before = await h.database.db.select({ id: userAvatars.userId }).from(userAvatars);
    const { body } = await upload(token, [file(png)]);
    expect(body.error?.code).toBe(ERROR_CODES.SESSION_MISSING);
    expect(body.error?.messageZh).toBeTruthy();
    const after = await h.database.db.select({ id: userAvatars.userId }).from(userAvatars);
    expect(after).toHaveLength(before.length);
  });

  it('refuses a signed-out session', async () => {
    const u = await user();
    await h.call('hub_logout', {}, { token: u.token });
    const { body } = await upload(u.token, [file(png)]);
    expect(body.error?.code).toBe(ERROR_CODES.SESSION_REVOKED);
    expect(await storedRow(u.id)).toBeUndefined();
  });

  it('sets the avatar of the person, whatever X-Team-Id says', async () => {
    const u = await user();
    const { body } = await upload(u.token, [file(png)], {
      headers: { 'x-team-id': randomUUID() },
    });
    expect(body.result?.avatar).toMatch(new RegExp(`^/avatar/${u.id}\\?`));
  });

  it('throttles uploads per user (10429, type3)', async () => {
    const u = await user();
    const codes: number[] = [];
    // Each from another IP: the per-user counter is the one that must bite.
    for (let i = 0; i < 21; i++) {
      const { body } = await upload(u.token, [{ name: 'note', data: 'x' }]);
      codes.push(body.error?.code ?? 0);
    }
    expect(codes.slice(0, 20).every((c) => c === ERROR_CODES.AVATAR_FILE_REQUIRED)).toBe(true);
    const { body } = await upload(u.token, [file(png)]);
    expect(body.error).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, limitType: 'type3' });
    expect(await storedRow(u.id)).toBeUndefined();
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const u = await user();
    const url = (await upload(u.token, [file(png)])).body.result!.avatar;
    const first = await getAvatar(url);
    const etag = first.headers.etag as string;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await getAvatar(url, { 'if-none-match': header });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload).toHaveLength(0);
      expect(again.headers.etag).toBe(etag);
    }
    const changed = await getAvatar(url, { 'if-none-match': '"something-else"' });
    expect(changed.statusCode).toBe(200);
  });

  it('answers 404 for a user without an avatar, an unknown id and a malformed one', async () => {
    const u = await user();
    for (const path of [
      `/avatar/${u.id}`,
      `/avatar/${randomUUID()}`,
      '/avatar/not-a-uuid',
      "/avatar/1'%20or%201=1",
    ]) {
      const res = await getAvatar(path);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).not.toMatch(/^image\//);
    }
  });

  it('hub_removeAvatar deletes the image and clears the profile', async () => {
    const u = await user();
    const url = (await upload(u.token, [file(png)])).body.result!.avatar;
    const removed = await h.call('hub_removeAvatar', {}, { token: u.token });
    expect(removed).toEqual({ ok: true, result: { success: true } });
    expect((await getAvatar(url)).statusCode).toBe(404);
    expect(await profileAvatar(u.token)).toBeNull();
    expect(await storedRow(u.id)).toBeUndefined();
    // Nothing left to remove is no error.
    expect(await h.call('hub_removeAvatar', {}, { token: u.token })).toEqual({
      ok: true,
      result: { success: true },
    });
  });

  it('hub_removeAvatar removes only the caller’s own avatar', async () => {
    const owner = await user();
    const other = await user();
    const url = (await upload(owner.token, [file(png)])).body.result!.avatar;
    // The other user's removal, even naming the owner's id in params or header, touches only their own.
    const res = await h.raw(
      { method: 'hub_removeAvatar', params: {}, id: 1 },
      { token: other.token },
    );
    expect(res.result).toEqual({ success: true });
    expect((await getAvatar(url)).statusCode).toBe(200);
    expect(await profileAvatar(owner.token)).toBe(url);
    const withParams = await h.raw(
      { method: 'hub_removeAvatar', params: { userId: owner.id }, id: 1 },
      { token: other.token },
    );
    expect(withParams.result ?? withParams.error).toBeDefined();
    expect((await getAvatar(url)).statusCode).toBe(200);
    expect(await storedRow(owner.id)).toBeDefined();
  });

  it('hub_removeAvatar needs a session', async () => {
    const res = await h.call('hub_removeAvatar', {});
    expect(res.error?.code).toBe(ERROR_CODES.SESSION_MISSING);
  });
});
