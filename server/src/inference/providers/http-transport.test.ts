import { describe, expect, it } from 'vitest';
import { backoffMs, clip, parseDuration, retryAfterMs, scrub } from './http-transport.js';

describe('parseDuration (OpenAI x-ratelimit-reset-* values)', () => {
  it.each([
    ['1s', 1000],
    ['6m0s', 360_000],
    ['20ms', 20],
    ['0.5s', 500],
    ['1h2m3.5s', 3_723_500],
    ['17.02s', 17_020],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '6 minutes', 'soon', 's'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    ['retry-after in seconds', { 'retry-after': '3' }, 3000],
    ['retry-after with a fraction', { 'retry-after': '1.5' }, 1500],
    ['retry-after as an HTTP date', { 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, 7000],
    ['retry-after as a past HTTP date', { 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, 0],
    ['retry-after-ms before retry-after', { 'retry-after-ms': '250', 'retry-after': '9' }, 250],
    [
      'an exhausted request quota',
      { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1.5s', 'x-ratelimit-remaining-tokens': '100', 'x-ratelimit-reset-tokens': '6m0s' },
      1500,
    ],
    [
      'both quotas exhausted: the later reset',
      { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-remaining-tokens': '0', 'x-ratelimit-reset-tokens': '4s' },
      4000,
    ],
  ])('%s', (_label, headers, ms) => {
    expect(retryAfterMs(headers, now)).toBe(ms);
  });

  it.each([
    ['no header', {}],
    ['quota left', { 'x-ratelimit-remaining-requests': '2', 'x-ratelimit-reset-requests': '1s' }],
    ['an unreadable retry-after', { 'retry-after': 'later' }],
  ])('%s: no hint', (_label, headers) => {
    expect(retryAfterMs(headers, now)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from 500 ms up to 8 s, with up to 25 % jitter taken off', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffMs(0, () => 0.999_999)).toBeCloseTo(375, 3);
    for (let i = 0; i < 100; i++) {
      const ms = backoffMs(1);
      expect(ms).toBeGreaterThan(750);
      expect(ms).toBeLessThanOrEqual(1000);
    }
  });
});

describe('scrub and clip', () => {
  it('removes every copy of the secret', () => {
    expect(scrub('bad key sk-123 (sk-123)', 'sk-123')).toBe('bad key [redacted] ([redacted])');
    expect(scrub('no key here', null)).toBe('no key here');
  });

  it('bounds provider text to 300 characters', () => {
    expect(clip('x'.repeat(1000))).toBe(`${'x'.repeat(300)}…`);
    expect(clip('short')).toBe('short');
  });
});
