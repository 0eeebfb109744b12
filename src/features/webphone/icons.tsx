import { icon } from '../../components/icons/icon.tsx'

// Material Design icon paths (Apache-2.0) of the webphone: those the top bar shows at once (the ringing dialog).
// The panel's own icons are in panelIcons.tsx, so they load with the panel.
export const CallEndIcon = /* @__PURE__ */ icon(
  'M12 9c-1.6 0-3.15.25-4.6.72v3.1c0 .39-.23.74-.56.9-.98.49-1.87 1.12-2.66 1.85-.18.18-.43.28-.7.28-.28 0-.53-.11-.71-.29L.29 13.08c-.18-.17-.29-.42-.29-.7 0-.28.11-.53.29-.71C3.34 8.78 7.46 7 12 7s8.66 1.78 11.71 4.67c.18.18.29.43.29.71 0 .28-.11.53-.29.71l-2.48 2.48c-.18.18-.43.29-.71.29-.27 0-.52-.11-.7-.28-.79-.74-1.69-1.36-2.67-1.85-.33-.16-.56-.5-.56-.9v-3.1C15.15 9.25 13.6 9 12 9z',
  'CallEndIcon',
)
