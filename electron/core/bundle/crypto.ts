// The encrypted envelope of a bundle (docs/bundles.md §3): a passphrase-derived key (scrypt) and AES-256-GCM, from
// node:crypto; nothing home-made. The header (magic, version, scrypt parameters, salt, IV) is authenticated as the
// GCM additional data, so changing any byte of the file makes opening it fail before anything is read from it.
//
//   "BATONBDL" (8 bytes) | header length (uint16 BE) | header (UTF-8 JSON) | ciphertext | GCM tag (16 bytes)
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCb, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';

export const BUNDLE_MAGIC = Buffer.from('BATONBDL', 'ascii');
const TAG_BYTES = 16;
const HEADER_MAX_BYTES = 1024;
/** OWASP's scrypt floor is N=2^17, r=8, p=1 (128 MiB, about half a second here): what a new bundle uses. */
export const SCRYPT_DEFAULTS = { N: 1 << 17, r: 8, p: 1 } as const;
/** What an opened bundle may ask for: never weaker than 2^15, never so costly it could exhaust this machine. */
const N_MIN = 1 << 15;
const N_MAX = 1 << 20;

const b64 = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]+={0,2}$/)
    .refine((s) => Buffer.from(s, 'base64').length === bytes && Buffer.from(s, 'base64').toString('base64') === s);

const headerSchema = z.strictObject({
  v: z.literal(1),
  kdf: z.literal('scrypt'),
  N: z
    .number()
    .int()
    .min(N_MIN)
    .max(N_MAX)
    .refine((n) => (n & (n - 1)) === 0, { error: 'N is not a power of two' }),
  r: z.literal(8),
  p: z.number().int().min(1).max(4),
  salt: b64(16),
  cipher: z.literal('aes-256-gcm'),
  iv: b64(12),
});
type Header = z.infer<typeof headerSchema>;

/** Why a bundle could not be opened; `code` lets a client tell a damaged file from a wrong passphrase. */
export class BundleOpenError extends Error {
  constructor(
    readonly code: 'format' | 'passphrase',
    message: string,
  ) {
    super(message);
  }
}

function deriveKey(passphrase: string, salt: Buffer, h: Pick<Header, 'N' | 'r' | 'p'>): Promise<Buffer> {
  const options: ScryptOptions = { N: h.N, r: h.r, p: h.p, maxmem: 256 * h.N * h.r * h.p };
  return new Promise((resolve, reject) => {
    // NFC: the same passphrase typed on two systems that compose accents differently gives the same key.
    scryptCb(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `plaintext` sealed with a key derived from `passphrase` under a fresh salt and IV. */
export async function sealBundle(
  plaintext: Uint8Array,
  passphrase: string,
  params: Pick<Header, 'N' | 'r' | 'p'> = SCRYPT_DEFAULTS,
): Promise<Buffer> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const header: Header = {
    v: 1,
    kdf: 'scrypt',
    ...params,
    salt: salt.toString('base64'),
    cipher: 'aes-256-gcm',
    iv: iv.toString('base64'),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(headerBytes.length);
  const aad = Buffer.concat([BUNDLE_MAGIC, length, headerBytes]);
  const key = await deriveKey(passphrase, salt, params);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([aad, body, cipher.getAuthTag()]);
}

/** The header of a sealed bundle, checked strictly; a file that is not one is refused here, before any key work. */
function readHeader(file: Uint8Array): { header: Header; aadLength: number } {
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buf.length < BUNDLE_MAGIC.length + 2 || !buf.subarray(0, BUNDLE_MAGIC.length).equals(BUNDLE_MAGIC))
    throw new BundleOpenError('format', 'this is not a Baton bundle (it does not start like one)');
  const length = buf.readUInt16BE(BUNDLE_MAGIC.length);
  const start = BUNDLE_MAGIC.length + 2;
  if (length === 0 || length > HEADER_MAX_BYTES || buf.length < start + length + TAG_BYTES)
    throw new BundleOpenError('format', 'the bundle is damaged: its header is cut short or too long');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(start, start + length)));
  } catch {
    throw new BundleOpenError('format', 'the bundle is damaged: its header is not readable');
  }
  if (typeof json === 'object' && json !== null && 'v' in json && json.v !== 1)
    throw new BundleOpenError('format', 'this bundle was made by a newer Baton (its format version is not supported)');
  const parsed = headerSchema.safeParse(json);
  if (!parsed.success) throw new BundleOpenError('format', 'the bundle is damaged: its header is not valid');
  return { header: parsed.data, aadLength: start + length };
}

/**
 * The plaintext of a sealed bundle. A wrong passphrase and a changed byte look the same to GCM: both are refused
 * with one message that names both causes, and no plaintext is returned.
 */
export async function openBundle(file: Uint8Array, passphrase: string): Promise<Buffer> {
  const { header, aadLength } = readHeader(file);
  const buf = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const key = await deriveKey(passphrase, Buffer.from(header.salt, 'base64'), header);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(header.iv, 'base64'), { authTagLength: TAG_BYTES });
  decipher.setAAD(buf.subarray(0, aadLength));
  decipher.setAuthTag(buf.subarray(buf.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(buf.subarray(aadLength, buf.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new BundleOpenError(
      'passphrase',
      'the bundle cannot be opened: the passphrase is wrong, or the file was changed after it was made',
    );
  }
}
