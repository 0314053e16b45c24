/** The first rows of the chosen CSV, the email column highlighted. Cells are text, never HTML. */
import { t } from '@/lib/shared/i18n';

export function CsvPreview({
  headers,
  rows,
  column,
}: {
  headers: string[];
  rows: string[][];
  column: number;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
    <section class="preview" tabIndex={0} aria-label={t('popup_preview_label')}>
      <table data-testid="csv-preview">
        <thead>
          <tr>
            {headers.map((header, i) => (
              <th key={`${i}-${header}`} scope="col" class={i === column ? 'email-col' : undefined}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, r) => (
            <tr key={r}>
              {headers.map((_, i) => (
                <td key={i} class={i === column ? 'email-col' : undefined}>
                  {row[i] ?? ''}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
