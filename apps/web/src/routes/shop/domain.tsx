export { default } from '../../features/domains/components/domain-shop-page.tsx';
