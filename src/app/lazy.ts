// Everything behind the login screen as one lazily loaded group (the Session Expired dialog too),
// except screens big enough for a chunk of their own (the customers list: routes.ts). Each lazy entry
// imports ui/first-bundle.ts first, so all share one file with the first bundle (see there).
import '../ui/first-bundle';
export { ShellScreen } from './shell-screen';
export { default as OrgPickerPage } from '../pages/org-picker/OrgPickerPage';
export { default as SmsPage } from '../pages/sms/SmsPage';
export { default as EmailPage } from '../pages/email/EmailPage';
export { default as CallsPage } from '../pages/calls/CallsPage';
export { default as JobsPage } from '../pages/jobs/JobsPage';
export { default as ForbiddenPage } from '../pages/forbidden/ForbiddenPage';
export { default as SessionExpiredView } from '../ui/session-expired-view';
