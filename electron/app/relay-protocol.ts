// The few messages between Electron main and the relay's utility process (over process.parentPort). Clients never
// use these: each gets its own MessagePort, and the relay carries the contract of shared/contract.ts on it, as text,
// to and from the background core's socket.
import { z } from 'zod';

const token = z.string().min(1).max(1024);
/** Where the background core listens (server.json): its socket or pipe, or a web-mode server's address. */
export const coreAddressSchema = z.union([
  z.strictObject({ socket: z.string().min(1).max(4096), token }),
  z.strictObject({ url: z.string().url().max(4096), token }),
]);

export const toRelaySchema = z.discriminatedUnion('type', [
  /** The core to connect new ports to (sent again when main found or started another one). */
  z.strictObject({ type: z.literal('core'), address: coreAddressSchema }),
  /** A new client: `ports[0]` is its end of a MessageChannelMain; the relay opens one socket connection for it. */
  z.strictObject({ type: z.literal('connect') }),
]);
export type ToRelay = z.infer<typeof toRelaySchema>;
