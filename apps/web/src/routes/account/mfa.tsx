export { default, MFA_REDIRECT_DELAY_MS } from '../../features/auth/components/mfa-page.tsx';
