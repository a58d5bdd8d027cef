export { default } from '../../features/servers/components/my-servers-page.tsx';
