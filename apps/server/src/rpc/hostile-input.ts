/** Input checks no zod schema makes: nul bytes anywhere (PostgreSQL text cannot hold them) and absurd nesting. */
import type { TErrorDetail } from './errors';

const MAX_DEPTH = 16;

/** Returns the first problem found, or null. Iterative, so deep nesting cannot overflow the stack. */
export function findHostileInput(value: unknown): TErrorDetail | null {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [
    { v: value, path: '', depth: 0 },
  ];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000'))
        return { path: path || '(root)', message: 'contains a nul character' };
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_DEPTH) return { path: path || '(root)', message: 'nested too deeply' };
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000'))
          return { path: path || '(root)', message: 'key contains a nul character' };
        stack.push({ v: child, path: path ? `${path}.${k}` : k, depth: depth + 1 });
      }
    }
  }
  return null;
}
