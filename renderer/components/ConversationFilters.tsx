// The filter row of a dialog that finds conversations (SearchDialog, SessionsFound): the words to look for, then the
// vendor to keep (any vendor this core knows but the plain shell); `children` adds the dialog's own filters after.
import { useId, useMemo, type ReactNode } from 'react';
import type { VendorName } from '../../shared/words.js';
import { useBaton } from '../state/store.js';

export function ConversationFilters({
  className,
  label,
  placeholder,
  maxLength,
  text,
  onText,
  vendor,
  onVendor,
  children,
}: {
  /** The dialog's own class for the row, next to `bt-row bt-gap`. */
  className: string;
  /** The words field's label and hint. */
  label: string;
  placeholder: string;
  maxLength: number;
  text: string;
  onText(text: string): void;
  vendor: VendorName | 'all';
  onVendor(vendor: VendorName | 'all'): void;
  children?: ReactNode;
}) {
  const id = useId();
  const hostVendors = useBaton((s) => s.hostInfo?.vendors ?? null);
  const vendors = useMemo(() => (hostVendors ?? []).map((v) => v.vendor).filter((v) => v !== 'shell'), [hostVendors]);
  return (
    <div className={`bt-row bt-gap ${className}`}>
      <div className="bt-field bt-field-grow">
        <label htmlFor={`${id}-text`}>{label}</label>
        <input
          id={`${id}-text`}
          type="search"
          className="bt-input"
          data-autofocus
          placeholder={placeholder}
          value={text}
          maxLength={maxLength}
          onChange={(e) => onText(e.target.value)}
        />
      </div>
      <div className="bt-field">
        <label htmlFor={`${id}-vendor`}>Vendor</label>
        <select id={`${id}-vendor`} value={vendor} onChange={(e) => onVendor(e.target.value as VendorName | 'all')}>
          <option value="all">all</option>
          {vendors.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </div>
      {children}
    </div>
  );
}
