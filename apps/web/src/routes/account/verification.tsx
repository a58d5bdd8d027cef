export { default, RESEND_COOLDOWN_S } from '../../features/auth/components/verification-page.tsx';
