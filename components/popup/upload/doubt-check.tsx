/** The column sanity check: few values of the chosen column look like addresses; "Upload anyway" must be ticked. */
import { formatNumber } from '@/components/popup/format';
import { t, tn } from '@/lib/shared/i18n';

export function DoubtCheck({
  emailLike,
  sampled,
  confirmed,
  onConfirm,
}: {
  emailLike: number;
  sampled: number;
  confirmed: boolean;
  onConfirm: (confirmed: boolean) => void;
}) {
  return (
    <div class="doubt" data-testid="column-doubt">
      <p role="alert">{tn('popup_column_doubt', sampled, formatNumber(emailLike))}</p>
      <label class="check-label">
        <input
          type="checkbox"
          checked={confirmed}
          onChange={(event) => onConfirm(event.currentTarget.checked)}
        />
        {t('popup_column_doubt_confirm')}
      </label>
    </div>
  );
}
