export { default } from '../../features/auth/components/email-link-page.tsx';
