/** The options' verification fields: default mode, cache lifetime, page budget and daily cap. */
import { MODES, type Mode } from '@verimark/contract';
import { t } from '@/lib/shared/i18n';
import { Field } from './field';

export const ttlLabel = t('options_cache_ttl');
export const budgetLabel = t('options_budget');
export const dailyCapLabel = t('options_daily_cap');

/** The fields' values, kept as text (an empty number field is refused on Save). */
export interface VerificationValues {
  mode: Mode;
  ttl: string;
  budget: string;
  dailyCap: string;
}

export function VerificationFields({
  values,
  onChange,
}: {
  values: VerificationValues;
  onChange: (change: Partial<VerificationValues>) => void;
}) {
  const { mode, ttl, budget, dailyCap } = values;
  const setMode = (value: Mode) => onChange({ mode: value });
  const setTtl = (value: string) => onChange({ ttl: value });
  const setBudget = (value: string) => onChange({ budget: value });
  const setDailyCap = (value: string) => onChange({ dailyCap: value });
  return (
    <>
      <label for="default-mode">{t('options_default_mode')}</label>
      <select id="default-mode" value={mode} onChange={(e) => setMode(e.currentTarget.value as Mode)}>
        {MODES.map((value) => (
          <option key={value} value={value}>
            {t(`options_mode_${value}`)}
          </option>
        ))}
      </select>
      <Field id="cache-ttl" label={ttlLabel} type="number" min={0} max={8760} value={ttl} onInput={setTtl} />
      <Field
        id="budget"
        label={budgetLabel}
        type="number"
        min={0}
        max={10_000}
        value={budget}
        onInput={setBudget}
      />
      <Field
        id="daily-cap"
        label={dailyCapLabel}
        type="number"
        min={0}
        max={100_000}
        value={dailyCap}
        aria-describedby="daily-cap-hint"
        onInput={setDailyCap}
      />
      <p id="daily-cap-hint" class="hint">
        {t('options_daily_cap_hint')}
      </p>
    </>
  );
}
