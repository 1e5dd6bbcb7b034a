/**
 * Socket reads into one reused buffer (node:net's documented `onread` option) instead of a 'data' event per read.
 * For each 'data' read Node makes a new ArrayBuffer (an external backing store: a malloc, a JS object and GC
 * accounting) and pushes it through the stream machinery; with `onread` the bytes land in a buffer given once and a
 * callback gets them. Each read's bytes are copied out at once (`Buffer.from`: reads under 4 KiB, the usual RPC
 * call or answer, go into Node's shared 8 KiB pool), so every chunk handed on is independent of the next read and
 * the code that takes chunks is unchanged. Measured (docs/decisions/gateway-design.md, "Reads into one buffer"):
 * 3–7 µs less CPU per proxied call for the raw floor, of 22–34.
 *
 * The front's sockets come from a server, whose connections net gives no `onread` option; `adoptSocket` wraps the
 * accepted socket's handle in a socket that has one. That uses the handle's `_handle` property (undocumented, stable
 * since Node 0.x, also what node:http reads); where it is missing the socket is used as it is.
 */
import net from 'node:net';

/** One buffer per process for all reads: each read is handed on (copied) before the next can land. */
const READ_BUFFER_BYTES = 64 * 1024;
let shared: Buffer | undefined;

/**
 * The `onread` option calling `onChunk` with a copy of each read's bytes. `onChunk` answering false stops reading
 * (as a full stream does, 'data' style); it starts again with the socket's `resume()`. Callers that hold no more
 * than they can take answer nothing (reading goes on).
 */
export function copyingReads(onChunk: (chunk: Buffer) => boolean | void): net.OnReadOpts {
  shared ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
  return {
    buffer: shared,
    callback: (bytes: number, buf: Uint8Array) =>
      onChunk(Buffer.from(buf.subarray(0, bytes))) !== false,
  };
}

type THandleSocket = net.Socket & { _handle?: object | null; server?: unknown };

/**
 * A socket reading through `reads` in place of `accepted` (a server's connection, accepted with the server's
 * `pauseOnConnect`, so it never started reading). `accepted` gives up its handle and stays, never read or written,
 * as the server's count of the connection: it is destroyed when the new socket closes, so `server.close()` waits
 * for this connection as it did for `accepted`. Answers `accepted` itself, reading, when its handle cannot be taken.
 */
export function adoptSocket(accepted: net.Socket, reads: net.OnReadOpts): net.Socket {
  const placeholder = accepted as THandleSocket;
  const handle = placeholder._handle;
  if (!handle || accepted.destroyed) return accepted.resume();
  placeholder._handle = null;
  const socket = new net.Socket({
    handle,
    allowHalfOpen: accepted.allowHalfOpen,
    readable: true,
    writable: true,
    onread: reads,
  } as net.SocketConstructorOpts) as THandleSocket;
  socket.server = placeholder.server;
  socket.once('close', () => accepted.destroy());
  return socket;
}
