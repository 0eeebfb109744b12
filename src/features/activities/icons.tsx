import { icon } from '../../components/icons/icon.tsx'

// Material Design icons (Apache-2.0) of the activities screen.
export const ActivitiesIcon = /* @__PURE__ */ icon(
  'M19 3h-1V1h-2v2H8V1H6v2H5c-1.11 0-2 .9-2 2v14c0 1.1.89 2 2 2h14c1.1 0 2-.9 2-2V5c0-1.1-.9-2-2-2zm0 16H5V8h14v11zM9 10H7v2h2v-2zm4 0h-2v2h2v-2zm4 0h-2v2h2v-2zm-8 4H7v2h2v-2zm4 0h-2v2h2v-2zm4 0h-2v2h2v-2z',
  'ActivitiesIcon',
)
export const DoneIcon = /* @__PURE__ */ icon('M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z', 'DoneIcon')
export const AddIcon = /* @__PURE__ */ icon('M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6v2z', 'AddIcon')
