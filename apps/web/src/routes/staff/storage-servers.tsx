export { default } from '../../features/infrastructure/components/storage-server-list-page.tsx';
