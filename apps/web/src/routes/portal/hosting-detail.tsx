export { default } from '../../features/hosting/components/hosting-page.tsx';
