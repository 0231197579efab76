// SPEC §2 Session-expired dialog (texts as written). Loaded lazily: the login screen never needs it.
import { navigate } from '../router/location';
import { Dialog } from './dialog';

export const SESSION_EXPIRED_TITLE = 'Session Expired';
export const SESSION_EXPIRED_TEXT = 'Your session expired or could not be refreshed. Please log in again.';

export default function SessionExpiredView({ onClose }: { onClose: () => void }) {
  const logIn = () => {
    onClose();
    navigate('/login');
  };
  return (
    <Dialog
      title={SESSION_EXPIRED_TITLE}
      onCancel={onClose}
      actions={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" data-autofocus onClick={logIn}>
            Log In Again
          </button>
        </>
      }
    >
      <p>{SESSION_EXPIRED_TEXT}</p>
    </Dialog>
  );
}
