// Everything behind the login screen as one lazily loaded group (the Session Expired dialog too),
// except screens big enough for a chunk of their own (routes.ts).
export { ShellScreen } from './shell-screen';
export { default as OrgPickerPage } from '../pages/org-picker/OrgPickerPage';
export { default as SmsPage } from '../pages/sms/SmsPage';
export { default as EmailPage } from '../pages/email/EmailPage';
export { default as CallsPage } from '../pages/calls/CallsPage';
export { default as JobsPage } from '../pages/jobs/JobsPage';
export { default as ForbiddenPage } from '../pages/forbidden/ForbiddenPage';
export { default as SessionExpiredView } from '../ui/session-expired-view';
