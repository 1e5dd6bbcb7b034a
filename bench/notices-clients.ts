/**
 * The client side of bench/notices.ts, in a process of its own so client work neither shares the server's heap
 * nor its event loop: opens the notice sockets exactly as the web app does (token in the query) and timestamps
 * every frame on arrival. Driven over IPC by the parent.
 */
import { NOTICE_SOCKET_PATH } from '@rpc/contract';
import WebSocket from 'ws';

/** Wall-clock ms with sub-ms resolution; the parent measures the offset between the two processes' clocks. */
const now = () => performance.timeOrigin + performance.now();

export type TClientRequest =
  | { kind: 'ping' }
  | { kind: 'open'; url: string; tokens: string[]; concurrency: number }
  | { kind: 'count' }
  | { kind: 'take' }
  | { kind: 'close' };

export type TClientReply =
  | { kind: 'pong'; t: number }
  | { kind: 'opened'; opened: number; failed: number; firstError: string | null; ms: number }
  | {
      kind: 'count';
      frames: number;
      unexpectedCloses: number;
      /** the first few: socket index, code and reason */
      closes: string[];
      badFrames: number;
    }
  /** frames as flat triples: socket index, notice seq (from expand), arrival time */
  | { kind: 'frames'; frames: number[] }
  | { kind: 'closed' };

const sockets: WebSocket[] = [];
let frames: number[] = [];
let frameCount = 0;
let badFrames = 0;
let unexpectedCloses = 0;
const closes: string[] = [];
let closing = false;

const reply = (msg: TClientReply) => process.send?.(msg);

function open(url: string, token: string, index: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(
      `${url.replace(/^http/, 'ws')}${NOTICE_SOCKET_PATH}?authorization=${encodeURIComponent(token)}`,
    );
    ws.on('message', (data) => {
      const t = now();
      try {
        const frame = JSON.parse(String(data)) as {
          params: { type: string; body: { expand: { seq?: unknown } } };
        };
        const seq = frame.params.body.expand.seq;
        if (frame.params.type !== 'message' || typeof seq !== 'number') throw new Error('shape');
        frames.push(index, seq, t);
        frameCount++;
      } catch {
        badFrames++;
      }
    });
    ws.once('open', () => {
      sockets[index] = ws;
      resolve();
    });
    ws.once('close', (code, reason) => {
      if (!closing) {
        unexpectedCloses++;
        if (closes.length < 10) closes.push(`socket ${index}: ${code} ${String(reason)}`);
      }
      reject(new Error(`closed ${code} before open`));
    });
    ws.on('error', (err) => reject(err));
  });
}

async function openAll(url: string, tokens: string[], concurrency: number): Promise<void> {
  const started = now();
  let next = 0;
  let failed = 0;
  let firstError: string | null = null;
  const worker = async () => {
    while (next < tokens.length) {
      const i = next++;
      try {
        await open(url, tokens[i]!, i);
      } catch (err) {
        failed++;
        firstError ??= (err as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  reply({
    kind: 'opened',
    opened: sockets.filter(Boolean).length,
    failed,
    firstError,
    ms: now() - started,
  });
}

process.on('message', (msg: TClientRequest) => {
  switch (msg.kind) {
    case 'ping':
      reply({ kind: 'pong', t: now() });
      break;
    case 'open':
      void openAll(msg.url, msg.tokens, msg.concurrency);
      break;
    case 'count':
      reply({ kind: 'count', frames: frameCount, unexpectedCloses, closes, badFrames });
      break;
    case 'take':
      reply({ kind: 'frames', frames });
      frames = [];
      break;
    case 'close': {
      closing = true;
      for (const ws of sockets) ws?.terminate();
      reply({ kind: 'closed' });
      process.disconnect();
      break;
    }
  }
});
