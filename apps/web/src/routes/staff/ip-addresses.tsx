export { default } from '../../features/infrastructure/components/ip-address-list-page.tsx';
