import type { RegisterInput, RegisterResult, ResendVerificationInput, ResendVerificationResult, MessageResult, VerifyEmailInput } from '@hp/contract';
import { api } from '../../../lib/api-client.ts';

// POST /api/auth/register
export const registerRequest = (body: RegisterInput) => api<RegisterResult>('/auth/register', { body, anonymous: true });

// POST /api/auth/verify-email
export const verifyEmailRequest = (body: VerifyEmailInput) => api<MessageResult>('/auth/verify-email', { body, anonymous: true });

// POST /api/auth/verify-email/resend
export const resendVerificationRequest = (body: ResendVerificationInput) => api<ResendVerificationResult>('/auth/verify-email/resend', { body, anonymous: true });
