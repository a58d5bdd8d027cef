import StaffTicketListPage from '../../features/support/components/staff-ticket-list-page.tsx';

export default function MyTicketsPage() {
  return <StaffTicketListPage scope="mine" />;
}
