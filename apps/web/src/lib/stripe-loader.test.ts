/**
 * The Stripe loader: importing it adds no script (pages without a card form never load Stripe.js); the first call
 * injects Stripe.js once and builds the instance with the publishable key. jsdom fetches no scripts: the test plays
 * the script's part by defining window.Stripe and firing its load event.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

type TStripeWindow = { Stripe?: unknown };

const scripts = () =>
  Array.from(document.querySelectorAll<HTMLScriptElement>('script[src^="https://js.stripe.com"]'));

afterEach(() => {
  for (const script of scripts()) script.remove();
  delete (window as TStripeWindow).Stripe;
  vi.resetModules();
});

describe('the Stripe loader', () => {
  it('adds no script on import, one on the first call, and reuses the instance', async () => {
    const { getStripe } = await import('./stripe');
    expect(scripts()).toHaveLength(0);

    const instance = { elements: vi.fn() };
    const StripeFn = Object.assign(
      vi.fn(() => instance),
      { version: 'endive' },
    );
    const first = getStripe('pk_test_abc');
    const second = getStripe('pk_test_abc');
    await vi.waitFor(() => expect(scripts()).toHaveLength(1));
    expect(scripts()[0]!.src).toBe('https://js.stripe.com/endive/stripe.js');
    (window as TStripeWindow).Stripe = StripeFn;
    scripts()[0]!.dispatchEvent(new Event('load'));

    await expect(first).resolves.toBe(instance);
    await expect(second).resolves.toBe(instance);
    expect(StripeFn).toHaveBeenCalledTimes(1);
    expect(StripeFn).toHaveBeenCalledWith('pk_test_abc');
    expect(scripts()).toHaveLength(1);
  });
});
