import { FinancingApiError } from "../errors";

/** The partner API's error a call failed with (anything else is thrown on; success fails the test). */
export async function failure(promise: Promise<unknown>): Promise<FinancingApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FinancingApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}
