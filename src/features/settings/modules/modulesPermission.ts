import { PERMISSIONS } from '../../../../contract/permissions.ts'

/**
 * The modules page (GET and PUT /api/v1/system/base/modules/): viewed with system.view_modules, changed with
 * system.change_modules. Its own module: the route file reads it, and route files ship in the first chunk.
 */
export const MODULES_VIEW_PERMISSION = PERMISSIONS.viewModules
export const MODULES_CHANGE_PERMISSION = PERMISSIONS.changeModules
