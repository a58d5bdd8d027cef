import { z } from 'zod';

export const ApiError = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof ApiError>;
