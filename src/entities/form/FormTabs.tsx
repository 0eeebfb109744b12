import { useState } from 'react'
import Chip from '@mui/joy/Chip'
import Tab from '@mui/joy/Tab'
import TabList from '@mui/joy/TabList'
import TabPanel from '@mui/joy/TabPanel'
import Tabs from '@mui/joy/Tabs'
import type { Field, FormTab } from '../../../contract/entities/index.ts'
import { conditionHolds } from '../../../contract/entities/index.ts'
import { useText } from '../text.ts'
import { FormFields } from './FieldRenderer.tsx'
import type { FieldsProps } from './FieldRenderer.tsx'
import { rootOf } from './validate.ts'

type Props = Omit<FieldsProps, 'fields'> & {
  readonly fields: readonly Field[]
  readonly tabs: readonly FormTab[]
  /** Controlled tab (the form opens the first tab holding an error after a failed submit). */
  readonly tab?: string
  readonly onTab?: (key: string) => void
}

/** Which tab holds the first message, in tab order. */
export function tabWithError(tabs: readonly FormTab[], errors: Readonly<Record<string, string>>): string | undefined {
  const roots = new Set(Object.keys(errors).map(rootOf))
  return tabs.find((tab) => tab.fields.some((name) => roots.has(name)))?.key
}

/**
 * The form's tabs (the registry's form.tabs; spec 001 §3 'tabs'): one panel per tab with its fields. A tab with a
 * message shows their count; hidden fields sit in the first panel so they are always part of the form. One tab
 * draws no tab bar.
 */
export function FormTabs({ fields, tabs, tab, onTab, ...props }: Props) {
  const text = useText()
  const [own, setOwn] = useState(tabs[0]?.key)
  const current = tab ?? own
  const byName = new Map(fields.map((f) => [f.name, f]))
  const shown = tabs
    .map((t) => ({ ...t, fields: t.fields.map((n) => byName.get(n)).filter((f): f is Field => !!f) }))
    .filter((t) => t.fields.some((f) => f.kind !== 'hidden' && conditionHolds(f.visibleWhen, props.values)))
  if (shown.length <= 1) return <FormFields fields={fields} {...props} />
  const counts = (t: (typeof shown)[number]) => Object.keys(props.errors).filter((path) => t.fields.some((f) => f.name === rootOf(path))).length
  return (
    <Tabs
      value={current}
      onChange={(_, key) => {
        setOwn(String(key))
        onTab?.(String(key))
      }}
      sx={{ bgcolor: 'transparent' }}
    >
      <TabList
        sx={{ overflowX: 'auto', scrollbarWidth: 'thin', mb: 2, '--ListItem-minHeight': '40px', [`& .MuiTab-root`]: { flex: 'none', whiteSpace: 'nowrap' } }}
      >
        {shown.map((t) => {
          const count = counts(t)
          return (
            <Tab key={t.key} value={t.key} data-tab={t.key} color={count ? 'danger' : undefined} indicatorInset>
              {text(t.label)}
              {count > 0 && (
                <Chip size="sm" color="danger" variant="solid" sx={{ ml: 0.75, minHeight: 18, fontSize: 11 }}>
                  {count}
                </Chip>
              )}
            </Tab>
          )
        })}
      </TabList>
      {shown.map((t, index) => (
        // Every panel stays mounted (keepMounted): fields keep their state and hidden values between tabs.
        <TabPanel key={t.key} value={t.key} keepMounted sx={{ p: 0 }}>
          <FormFields fields={index === 0 ? [...t.fields, ...fields.filter((f) => f.kind === 'hidden' && !t.fields.includes(f))] : t.fields} {...props} />
        </TabPanel>
      ))}
    </Tabs>
  )
}
