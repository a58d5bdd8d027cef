export { default } from '../../features/shop/components/payment-page.tsx';
