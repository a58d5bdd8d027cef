import type { MessageResult, ResetCompleteInput, ResetRequestInput, ResetRequestResult, ResetVerifyInput, ResetVerifyResult } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// POST /api/auth/password-reset/request — step 1: a code by e-mail.
export const resetRequest = (body: ResetRequestInput) => api<ResetRequestResult>('/auth/password-reset/request', { body, anonymous: true });

// POST /api/auth/password-reset/verify — step 2: names the code by the resetId of step 1, or by the e-mail
// address when the page was left in between.
export const resetVerify = (body: ResetVerifyInput) => api<ResetVerifyResult>('/auth/password-reset/verify', { body, anonymous: true });

// POST /api/auth/password-reset/complete — step 3: the new password.
export const resetComplete = (body: ResetCompleteInput) => api<MessageResult>('/auth/password-reset/complete', { body, anonymous: true });
