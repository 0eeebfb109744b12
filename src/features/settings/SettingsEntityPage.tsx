import { EntityHomePage } from '../../entities/EntityHomePage.tsx'
// The settings area's panels beside its forms, registered before any of its pages renders.
import './formExtensions.tsx'

/** /settings/$: the settings home of the entity pages. */
export function SettingsEntityPage() {
  return <EntityHomePage home="settings" />
}
