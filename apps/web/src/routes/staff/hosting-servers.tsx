export { default } from '../../features/infrastructure/components/hosting-server-list-page.tsx';
