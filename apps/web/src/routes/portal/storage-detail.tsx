export { default } from '../../features/storage/components/storage-page.tsx';
