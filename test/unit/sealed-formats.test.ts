/**
 * The two sealed formats kept in service DBs (an API key under an OAuth code or token; a checkout's key under
 * the webhook secret) open after the move to one AEAD primitive (server/secrets/aead.ts): the values below were
 * sealed by the code before that move. Each opens only with its own secret and for its own purpose.
 */
import { describe, expect, it } from 'vitest';
import { seal, unseal } from '../../server/oauth/crypto.ts';
import { openSealedKey, sealKey } from '../../server/billing/reveal.ts';

const KEY = 'pcb_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
const TOKEN = 'ppa_fixed-token-for-the-format-test';
const WEBHOOK_SECRET = 'whsec_fixed_secret_for_the_format_test';
const OAUTH_BEFORE = 'qQ57G3I2I4tYsUFE62I3iouhtAHymLsybPwm-kCRmlHF-2pxbmGXEvgvrOEgrbyGFqtA2geA3wVux_Xd3Uw6OWEUI-ap';
const BILLING_BEFORE = 'v1.aqgCGmF3i3ulm7Dz.1O1b6TpyWlozyvLOvDFJlQ.ASulQXrXtZVi-fP4_Xu5_XljZasM0g5HrB2lTTsC6fAW0gR16Iaror4';

describe('sealed formats kept in service DBs', () => {
  it('values sealed by the earlier code still open', () => {
    expect(unseal(OAUTH_BEFORE, TOKEN)).toBe(KEY);
    expect(openSealedKey(BILLING_BEFORE, WEBHOOK_SECRET)).toBe(KEY);
  });

  it('round trip in each format; a fresh IV each time', () => {
    const a = seal(KEY, TOKEN);
    expect(a).not.toBe(seal(KEY, TOKEN));
    expect(Buffer.from(a, 'base64url').length).toBe(12 + 16 + KEY.length);
    expect(unseal(a, TOKEN)).toBe(KEY);
    const b = sealKey(KEY, WEBHOOK_SECRET);
    expect(b).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(openSealedKey(b, WEBHOOK_SECRET)).toBe(KEY);
  });

  it('another secret, another purpose, or an altered byte: nothing opens', () => {
    expect(unseal(OAUTH_BEFORE, `${TOKEN}x`)).toBeNull();
    expect(() => openSealedKey(BILLING_BEFORE, `${WEBHOOK_SECRET}x`)).toThrow();
    // the same secret used for the other purpose derives another key
    const [, iv, tag, body] = BILLING_BEFORE.split('.');
    const asOAuth = Buffer.concat([Buffer.from(iv!, 'base64url'), Buffer.from(tag!, 'base64url'), Buffer.from(body!, 'base64url')]).toString('base64url');
    expect(unseal(asOAuth, WEBHOOK_SECRET)).toBeNull();
    const raw = Buffer.from(OAUTH_BEFORE, 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(unseal(raw.toString('base64url'), TOKEN)).toBeNull();
  });
});
