import { registerEntityHooks } from '../entities/hooks.ts'
import { dropVoipOfDevice, syncVoipAccounts } from '../entities/voip-sync.ts'
import { telephonyTablesChanged } from './changes.ts'

// Telephony follows the settings it depends on: the webphone account follows a user's device, and Kamailio's
// credential, call-cap and trunk tables are pushed again (credentials.ts) once devices, trunks or sites change.

registerEntityHooks('business.users', {
  afterWrite: (ctx, id) => syncVoipAccounts(ctx, { userIds: [id] }),
})

registerEntityHooks('business.sites', {
  // The SIP realm is the site's domain.
  afterCommit: (ctx) => telephonyTablesChanged(ctx.bus, 'sites'),
})

registerEntityHooks('pabx.devices', {
  afterWrite: (ctx, id) => syncVoipAccounts(ctx, { deviceIds: [id] }),
  beforeDelete: (ctx, id) => dropVoipOfDevice(ctx, id),
  afterCommit: (ctx) => telephonyTablesChanged(ctx.bus, 'devices'),
})

registerEntityHooks('pabx.trunks', {
  afterCommit: (ctx) => telephonyTablesChanged(ctx.bus, 'trunks'),
})
