// Every area's rules for the settings entities it owns (server/entities/hooks.ts holds them). Loaded by the
// composition root (app.ts) and by the seed, which writes through the same path without the app: one line per area.
import './users/entity-hooks.ts'
import './sites/entity-hooks.ts'
import './telephony/entity-hooks.ts'
import './channels/whatsapp/entity-hooks.ts'
import './media/sound-files.ts'
import './crm/entity-hooks.ts'
// Last: the auth cache hears of a change once every other rule of that write has run.
import './users/auth-cache-hooks.ts'
