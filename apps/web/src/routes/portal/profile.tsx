export { default } from '../../features/auth/components/profile-page.tsx';
