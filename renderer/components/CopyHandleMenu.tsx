// "Copy handle" for a run or one agent: a small menu with the handle itself or the vendors' own resume commands.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useBaton } from '../state/store.js';
import { errorMessage } from './format.js';
import './components.css';

export interface CopyHandleMenuProps {
  runId: string;
  /** Copy one agent's handle instead of the whole run's. */
  agentLabel?: string;
}

export function CopyHandleMenu({ runId, agentLabel }: CopyHandleMenuProps) {
  const copyHandle = useBaton((s) => s.copyHandle);
  const copyShellCommands = useBaton((s) => s.copyShellCommands);
  const toast = useBaton((s) => s.toast);
  const [open, setOpen] = useState(false);
  const id = useId();
  const wrapRef = useRef<HTMLSpanElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const firstFocus = useRef(0);

  const items = [
    { label: 'Copy handle', run: () => copyHandle(runId, agentLabel) },
    { label: 'Copy as shell commands', run: () => copyShellCommands(runId, agentLabel) },
  ];

  useEffect(() => {
    if (!open) return;
    itemRefs.current[firstFocus.current]?.focus();
    const onPointer = (e: PointerEvent) => {
      if (e.target instanceof Node && !wrapRef.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const openAt = (index: number) => {
    firstFocus.current = index;
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const choose = async (run: () => Promise<void>) => {
    close(true);
    try {
      await run();
    } catch (err) {
      toast('error', `Could not copy: ${errorMessage(err)}`);
    }
  };

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const current = itemRefs.current.findIndex((el) => el === document.activeElement);
    const move = (to: number) => itemRefs.current[(to + items.length) % items.length]?.focus();
    if (e.key === 'ArrowDown') move(current + 1);
    else if (e.key === 'ArrowUp') move(current - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(items.length - 1);
    else if (e.key === 'Escape') close(true);
    else if (e.key === 'Tab') return setOpen(false);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <span ref={wrapRef} className="bt-menu-wrap">
      <button
        ref={buttonRef}
        type="button"
        className="bt-button"
        aria-label={agentLabel ? `Copy handle of ${agentLabel}` : undefined}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close(false) : openAt(0))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            openAt(e.key === 'ArrowDown' ? 0 : items.length - 1);
          }
        }}
      >
        Copy handle
      </button>
      {open ? (
        <div
          id={`${id}-menu`}
          role="menu"
          className="bt-menu"
          aria-label={agentLabel ? `Copy handle of ${agentLabel}` : 'Copy handle'}
          onKeyDown={onMenuKey}
        >
          {items.map((item, i) => (
            <button
              key={item.label}
              ref={(el) => {
                itemRefs.current[i] = el;
              }}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="bt-menu-item"
              onClick={() => void choose(item.run)}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : null}
    </span>
  );
}
