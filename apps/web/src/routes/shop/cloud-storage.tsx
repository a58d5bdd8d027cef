export { default } from '../../features/storage/components/storage-shop-page.tsx';
