export { default } from '../../features/infrastructure/components/node-list-page.tsx';
