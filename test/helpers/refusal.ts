// The error a request that must be refused was refused with: the test fails if it was accepted or failed otherwise.
import { expect } from 'vitest';
import { BatonError } from '../../shared/contract.js';

export async function refusal(promise: Promise<unknown>): Promise<BatonError> {
  const err = await promise.then(
    () => {
      throw new Error('the request was accepted');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BatonError);
  return err as BatonError;
}
