// The bundle envelope (electron/core/bundle/crypto.ts) and content (payload.ts): a round trip, a wrong passphrase, and
// a changed byte in every part of the file, each refused before any content is returned.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BUNDLE_MAGIC, BundleOpenError, openBundle, sealBundle } from '../../electron/core/bundle/crypto.js';
import { packPayload, unpackPayload, type BundlePayload } from '../../electron/core/bundle/payload.js';

const PASS = 'correct horse battery staple';
const plain = Buffer.from('{"hello":"world"}\n'.repeat(50));

async function refusal(p: Promise<unknown>): Promise<BundleOpenError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BundleOpenError);
  return err as BundleOpenError;
}

describe('bundle envelope', () => {
  it('opens what it sealed, and never holds the plaintext or the passphrase in the clear', async () => {
    const sealed = await sealBundle(plain, PASS);
    expect(sealed.subarray(0, 8).equals(BUNDLE_MAGIC)).toBe(true);
    expect(sealed.includes(Buffer.from('hello'))).toBe(false);
    expect(sealed.includes(Buffer.from(PASS))).toBe(false);
    expect((await openBundle(sealed, PASS)).equals(plain)).toBe(true);
    // A fresh salt and IV each time: the same content never gives the same file.
    expect((await sealBundle(plain, PASS)).equals(sealed)).toBe(false);
  });

  it('refuses a wrong passphrase with a message that says so', async () => {
    const sealed = await sealBundle(plain, PASS);
    const err = await refusal(openBundle(sealed, 'not the passphrase'));
    expect(err.code).toBe('passphrase');
    expect(err.message).toMatch(/passphrase is wrong/);
  });

  it('refuses a change to any part: magic, header length, header, ciphertext, tag; and a cut or grown file', async () => {
    const sealed = await sealBundle(plain, PASS);
    const headerLength = sealed.readUInt16BE(8);
    const flip = (at: number) => {
      const copy = Buffer.from(sealed);
      copy[at] = copy[at]! ^ 0x01;
      return copy;
    };
    const headerStart = 10;
    const bodyStart = headerStart + headerLength;
    // Inside the header, a byte of the salt's base64 (still valid JSON and base64, so only the AAD/key catch it).
    const saltAt = sealed.indexOf(Buffer.from('"salt":"')) + 9;
    // Another base64 letter, never a character outside base64 (a flipped bit can make '{' of 'z': a format error).
    const saltChanged = () => {
      const copy = Buffer.from(sealed);
      copy[saltAt] = copy[saltAt] === 0x41 ? 0x42 : 0x41;
      return copy;
    };
    const cases: [string, Buffer, BundleOpenError['code']][] = [
      ['magic', flip(0), 'format'],
      // The length's high byte: 256 bytes more or less is never a header (±1 could end on a ciphertext byte that is
      // JSON whitespace, which parses, and is then refused as a wrong key instead).
      ['header length', flip(8), 'format'],
      ['header JSON', flip(headerStart), 'format'],
      ['salt in the header', saltChanged(), 'passphrase'],
      ['ciphertext first byte', flip(bodyStart), 'passphrase'],
      ['ciphertext middle', flip(bodyStart + 20), 'passphrase'],
      ['tag', flip(sealed.length - 1), 'passphrase'],
      ['cut short', sealed.subarray(0, sealed.length - 5), 'passphrase'],
      ['cut into the header', sealed.subarray(0, headerStart + 5), 'format'],
      ['a byte appended', Buffer.concat([sealed, Buffer.from([0])]), 'passphrase'],
      ['empty', Buffer.alloc(0), 'format'],
    ];
    for (const [what, bytes, code] of cases) {
      const err = await refusal(openBundle(bytes, PASS));
      expect(err.code, what).toBe(code);
    }
  });

  it('refuses a header that asks for weak or exhausting key derivation', async () => {
    const sealed = await sealBundle(plain, PASS);
    const headerLength = sealed.readUInt16BE(8);
    const header = JSON.parse(sealed.subarray(10, 10 + headerLength).toString()) as Record<string, unknown>;
    for (const N of [1024, 1 << 24, 3 * (1 << 16)]) {
      const h = Buffer.from(JSON.stringify({ ...header, N }));
      const len = Buffer.alloc(2);
      len.writeUInt16BE(h.length);
      const forged = Buffer.concat([sealed.subarray(0, 8), len, h, sealed.subarray(10 + headerLength)]);
      expect((await refusal(openBundle(forged, PASS))).code).toBe('format');
    }
  });
});

describe('bundle content', () => {
  const transcript = Buffer.from('{"a":1}\n').toString('base64');
  const good: BundlePayload = {
    v: 1,
    createdAt: new Date().toISOString(),
    handle: 'baton1.x',
    snapshotId: null,
    agents: [{ index: 0, args: [], transcript: 'agents/0/transcript.jsonl', note: null, branch: null }],
    files: { 'agents/0/transcript.jsonl': transcript },
  };

  it('round-trips', () => {
    expect(unpackPayload(packPayload(good))).toEqual(good);
  });

  const bad = (p: unknown) => () => unpackPayload(gzipSync(Buffer.from(JSON.stringify(p))));

  it('refuses paths, escapes and files that belong to no agent', () => {
    for (const name of ['../../.bashrc', '/etc/passwd', 'agents/0/../../x', 'agents/0/transcript.jsonl/', 'x']) {
      expect(bad({ ...good, files: { [name]: transcript } }), name).toThrow(BundleOpenError);
      expect(
        bad({ ...good, agents: [{ ...good.agents[0], transcript: name }], files: { [name]: transcript } }),
        name,
      ).toThrow(BundleOpenError);
    }
    // A file of agent 1 named by agent 0, an unnamed extra file, an unknown key, a command.
    expect(bad({ ...good, agents: [{ ...good.agents[0], transcript: 'agents/1/transcript.jsonl' }] })).toThrow(
      BundleOpenError,
    );
    expect(bad({ ...good, files: { ...good.files, 'agents/0/branch.bundle': transcript } })).toThrow(BundleOpenError);
    expect(bad({ ...good, command: ['rm', '-rf', '/'] })).toThrow(BundleOpenError);
    expect(bad({ ...good, agents: [{ ...good.agents[0], command: ['sh'] }] })).toThrow(BundleOpenError);
  });

  it('refuses content that is not gzip, not JSON, or inflates past the cap', () => {
    expect(() => unpackPayload(Buffer.from('plain text'))).toThrow(BundleOpenError);
    expect(() => unpackPayload(gzipSync(Buffer.from('not json')))).toThrow(BundleOpenError);
  });
});
