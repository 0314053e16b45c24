/** The "CSV file" input, which is also a drop target for a file dragged onto the popup. */
import { useRef, useState } from 'preact/hooks';
import { t } from '@/lib/shared/i18n';

export function FileDrop({ onFile }: { onFile: (file: File) => void }) {
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const take = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) onFile(file);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is a pointer shortcut; the labelled input is the keyboard path
    <div
      class={`drop-zone${over ? ' drop-over' : ''}`}
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const files = event.dataTransfer?.files;
        // The input shows the dropped file's name, as if it had been chosen.
        if (files?.length && input.current) input.current.files = files;
        take(files);
      }}
    >
      <label for="csv-file">{t('popup_csv_label')}</label>
      <input
        id="csv-file"
        type="file"
        accept=".csv,text/csv"
        ref={input}
        aria-describedby="csv-hint"
        onChange={(event) => take(event.currentTarget.files)}
      />
      <p id="csv-hint" class="muted">
        {t('popup_csv_hint')}
      </p>
    </div>
  );
}
