export { default } from '../../features/servers/components/server-page.tsx';
