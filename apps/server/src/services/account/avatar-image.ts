/**
 * An uploaded avatar made safe to serve: the type told from the bytes (never the name or the declared type), the
 * size in pixels checked from the header before anything is decoded, then decoded by sharp and re-encoded as a
 * metadata-free square WebP, so no uploaded byte is ever served as it came (docs/decisions/avatars.md).
 */
import { createHash } from 'node:crypto';
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS, AVATAR_SIZE_PX, ERROR_CODES } from '@rpc/contract';
import sharp from 'sharp';
import { RpcError } from '../../rpc/errors';

export type TAvatarFormat = 'png' | 'jpeg' | 'webp';

export type TAvatarImage = {
  /** the re-encoded image */
  image: Buffer;
  contentType: 'image/webp';
  /** hex SHA-256 of `image` */
  sha256: string;
};

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format the first bytes announce (PNG signature, JPEG SOI marker, RIFF…WEBP), or null for anything else. */
export function sniffAvatarFormat(bytes: Buffer): TAvatarFormat | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return null;
}

/**
 * Checks and re-encodes one upload. Throws 11001 (too many bytes), 11002 (not PNG/JPEG/WebP by its bytes, or
 * the decoder reads another format than the magic number says), 11004 (too many pixels), 11003 (does not decode).
 */
export async function reencodeAvatar(bytes: Buffer): Promise<TAvatarImage> {
  if (bytes.length > AVATAR_MAX_BYTES) throw new RpcError(ERROR_CODES.AVATAR_TOO_LARGE);
  const sniffed = sniffAvatarFormat(bytes);
  if (!sniffed) throw new RpcError(ERROR_CODES.AVATAR_UNSUPPORTED_TYPE);
  // limitInputPixels is the decoder's own guard; the header check below refuses a bomb before any pixel is
  // allocated. failOn 'error': corrupt or truncated data is refused, while libjpeg's warnings (the extraneous bytes
  // many phone JPEGs carry) are not, since nothing of the original survives the re-encode anyway.
  const input = {
    limitInputPixels: AVATAR_MAX_PIXELS,
    failOn: 'error' as const,
    autoOrient: true,
    pages: 1,
  };
  let width: number | undefined;
  let height: number | undefined;
  try {
    const meta = await sharp(bytes, input).metadata();
    if (meta.format !== sniffed) throw new RpcError(ERROR_CODES.AVATAR_UNSUPPORTED_TYPE);
    width = meta.width;
    height = meta.height;
  } catch (err) {
    throw asAvatarError(err);
  }
  if (!width || !height) throw new RpcError(ERROR_CODES.AVATAR_INVALID_IMAGE);
  if (width * height > AVATAR_MAX_PIXELS) throw new RpcError(ERROR_CODES.AVATAR_TOO_MANY_PIXELS);

  let image: Buffer;
  try {
    // Output carries no metadata (sharp drops EXIF, ICC, XMP unless asked to keep them): no GPS position leaks.
    image = await sharp(bytes, input)
      .resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (err) {
    throw asAvatarError(err);
  }
  return {
    image,
    contentType: 'image/webp',
    sha256: createHash('sha256').update(image).digest('hex'),
  };
}

function asAvatarError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  const text = err instanceof Error ? err.message : '';
  if (/pixel limit/i.test(text)) return new RpcError(ERROR_CODES.AVATAR_TOO_MANY_PIXELS);
  return new RpcError(ERROR_CODES.AVATAR_INVALID_IMAGE, { cause: err });
}
