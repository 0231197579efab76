// Imported first by every lazily loaded entry: app/lazy.ts (the shell and most screens) and each
// screen with a chunk of its own (pages/customers/CustomersPage.tsx). esbuild puts the first-bundle
// modules that lazy entries use into shared files chosen by WHICH entries use them, and each such
// file loads before the login form (bench/bundle.mjs budget). When every lazy entry reaches the same
// first-bundle modules there is one such file; so the ones only some screens use are named here.
// A new one (a page chunk using ui/form.tsx, say) belongs here too: the bench shows a new file if not.
import '../lib/storage'; // the shell's theme toggle stores the choice (D11)
import './toast'; // screens confirm and report with toasts
import '../http/errors'; // the shell group has no queries or writes since the dashboard has a chunk of its own
import '../http/connectivity'; // the customer form waits for the connection to save
import './form'; // the customer form (its own chunk) uses the login form's hook
import './spinner'; // loading states (the Add Customer chunk has none, so it is named here)
import '../router/Link'; // links (the team and permissions chunks have none)
import '../session/tokens'; // the invitation page stores a new account's tokens as a login does (D28)
import '../lib/events'; // the query cache listens for the session's events (the invitation page has no queries)
import '../session/use-session'; // every screen reads the session; the customer form's leave dialog does not
import '../lib/time'; // the query cache waits between retries (the shell and the leave dialog have no queries)
