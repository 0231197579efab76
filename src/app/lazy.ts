// Everything behind the login screen, as ONE lazily loaded chunk (the Session Expired dialog too).
// Each lazily loaded entry that shares a different slice of the first bundle makes esbuild cut that
// slice into more small files loaded before the login form; one group keeps that to one shared file.
export { ShellScreen } from './shell-screen';
export { default as OrgPickerPage } from '../pages/org-picker/OrgPickerPage';
export { default as DashboardPage } from '../pages/dashboard/DashboardPage';
export { default as SmsPage } from '../pages/sms/SmsPage';
export { default as EmailPage } from '../pages/email/EmailPage';
export { default as CallsPage } from '../pages/calls/CallsPage';
export { default as CustomersPage } from '../pages/customers/CustomersPage';
export { default as AddCustomerPage } from '../pages/customers/AddCustomerPage';
export { default as CustomerDashboardPage } from '../pages/customers/CustomerDashboardPage';
export { default as EditCustomerPage } from '../pages/customers/EditCustomerPage';
export { default as JobsPage } from '../pages/jobs/JobsPage';
export { default as TeamPage } from '../pages/team/TeamPage';
export { default as PermissionsPage } from '../pages/permissions/PermissionsPage';
export { default as ForbiddenPage } from '../pages/forbidden/ForbiddenPage';
export { default as SessionExpiredView } from '../ui/session-expired-view';
