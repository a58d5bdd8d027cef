export { default } from '../../features/shop/components/kvm-server-page.tsx';
