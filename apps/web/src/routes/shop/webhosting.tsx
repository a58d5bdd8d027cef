export { default } from '../../features/shop/components/webhosting-shop-page.tsx';
