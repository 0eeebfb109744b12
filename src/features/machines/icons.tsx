import { icon } from '../../components/icons/icon.tsx'

// Material Design "account tree" (Apache-2.0): the machine visualizer's menu entry.
export const MachinesIcon = /* @__PURE__ */ icon('M22 11V3h-7v3H9V3H2v8h7V8h2v10h4v3h7v-8h-7v3h-2V8h2v3z', 'MachinesIcon')
