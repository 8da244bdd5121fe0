// Errors the service raises, in the user's words; each carries a wire code so clients can react.
import { BatonError } from '../../../shared/contract.js';

export const invalid = (message: string, field?: string) =>
  new BatonError(
    field === undefined ? { code: 'invalid', message } : { code: 'invalid', message: `${field}: ${message}`, field },
  );
export const notFound = (message: string) => new BatonError({ code: 'not-found', message });
export const conflict = (message: string) => new BatonError({ code: 'conflict', message });
export const failed = (message: string) => new BatonError({ code: 'failed', message });
