/** Time as a dependency, so tests can expire sessions and codes without waiting. */
export type TClock = { now: () => number };

export const systemClock: TClock = { now: () => Date.now() };
