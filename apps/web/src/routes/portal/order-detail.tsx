export { default } from '../../features/billing/components/order-page.tsx';
