import ProfilePage from '../../features/auth/components/profile-page.tsx';
import { TicketMailSettingCard } from '../../features/support/components/ticket-mail-setting-card.tsx';
import { useSession } from '../../lib/session.ts';

/** The profile; staff also choose here whether they get ticket mails. */
export default function ProfileRoute() {
  const { claims } = useSession();
  const staff = claims?.role === 'employee' || claims?.role === 'owner';
  return <ProfilePage extra={staff ? <TicketMailSettingCard /> : null} />;
}
