// The few messages between Electron main and the core host's utility process (over process.parentPort).
// Clients never use these: each gets its own MessagePort and speaks the contract of shared/contract.ts on it.
import { z } from 'zod';

export const toCoreSchema = z.discriminatedUnion('type', [
  /** A new client: `ports[0]` is its end of a MessageChannelMain. */
  z.strictObject({ type: z.literal('connect') }),
  /** Quit: snapshot and stop every agent (design §6), answer `closed`, exit. */
  z.strictObject({ type: z.literal('close') }),
]);
export type ToCore = z.infer<typeof toCoreSchema>;

export const fromCoreSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('closed') }),
  /** The core could not open its data directory: the reason, in the user's words. */
  z.strictObject({ type: z.literal('failed'), message: z.string().max(2000) }),
]);
export type FromCore = z.infer<typeof fromCoreSchema>;

/** The argument that names the core's data directory. */
export const DATA_DIR_ARG = '--data-dir=';
